import Type from 'typebox';

/**
 * `imp.ext.bidder` for Sharethrough, as Prebid Server's `static/bidder-params/sharethrough.json`
 * defines it: the placement key `pkey` (a string, required) and optional lists of blocked
 * advertiser domains `badv` and IAB categories `bcat` (strings). Keys it does not name are allowed.
 */
export const sharethroughParamsSchema = Type.Object(
  {
    pkey: Type.String({ description: 'The placement key; it becomes imp.tagid' }),
    badv: Type.Optional(Type.Array(Type.String(), { description: 'Blocked advertiser domains, added to the request badv' })),
    bcat: Type.Optional(Type.Array(Type.String(), { description: 'Blocked IAB categories, added to the request bcat' })),
  },
  { additionalProperties: true },
);
