import Type from 'typebox';

/**
 * `imp.ext.bidder` for PubMatic, as Prebid Server's `static/bidder-params/pubmatic.json` defines
 * it: `publisherId` required; other keys, and keys it does not name, allowed.
 */
export const pubmaticParamsSchema = Type.Object(
  {
    publisherId: Type.String({ description: 'The publisher at PubMatic' }),
    adSlot: Type.Optional(Type.String({ description: 'The ad slot: "name" or "name@WxH"' })),
    pmzoneid: Type.Optional(Type.String({ description: 'Comma-separated zone ids, for deal and site section targeting' })),
    kadfloor: Type.Optional(Type.String({ description: 'A bid floor; the higher of it and imp.bidfloor applies' })),
    dctr: Type.Optional(Type.String({ description: 'Deal custom targeting: key1=v1,v2|key2=v3' })),
    acat: Type.Optional(Type.Array(Type.String(), { description: 'Allowed categories, sent in request.ext' })),
    wrapper: Type.Optional(
      Type.Object(
        {
          profile: Type.Integer({ description: 'The OpenWrap profile' }),
          version: Type.Optional(Type.Integer({ description: 'The version of the OpenWrap profile' })),
        },
        { additionalProperties: true },
      ),
    ),
    keywords: Type.Optional(
      Type.Array(
        Type.Object(
          {
            key: Type.String(),
            value: Type.Array(Type.String(), { minItems: 1 }),
          },
          { additionalProperties: true, description: 'A key with its values, for buy-side segment targeting' },
        ),
        { minItems: 1 },
      ),
    ),
  },
  { additionalProperties: true },
);
