import Type from 'typebox';

/**
 * `imp.ext.bidder` for Media.net, as Prebid Server's `static/bidder-params/medianet.json` defines
 * it: `cid` (the customer id) and `crid` (the placement id), both non-empty strings, required.
 * Keys it does not name are allowed.
 */
export const medianetParamsSchema = Type.Object(
  {
    cid: Type.String({ minLength: 1, description: 'The customer id provided by Media.net' }),
    crid: Type.String({ minLength: 1, description: 'The placement id provided by Media.net' }),
  },
  { additionalProperties: true },
);
