import Type from 'typebox';

/**
 * `imp.ext.bidder` for 33Across, as Prebid Server's `static/bidder-params/33across.json` defines
 * it: a `productId` with a `siteId` or a `zoneId` (or both), all strings. Keys it does not name
 * are allowed.
 */
export const thirtyThreeAcrossParamsSchema = Type.Object(
  {
    productId: Type.Optional(Type.String({ description: 'The 33Across product (e.g. inview, siab, instream); sent as imp.ext.ttx.prod' })),
    siteId: Type.Optional(Type.String({ description: 'The 33Across site; sent as imp.ext.ttx.zoneid when there is no zoneId' })),
    zoneId: Type.Optional(Type.String({ description: 'The 33Across zone; sent as imp.ext.ttx.zoneid, preferred to siteId' })),
  },
  {
    additionalProperties: true,
    anyOf: [{ required: ['productId', 'siteId'] }, { required: ['productId', 'zoneId'] }],
  },
);
