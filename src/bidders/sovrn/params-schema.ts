import Type from 'typebox';

/**
 * `imp.ext.bidder` for Sovrn, as Prebid Server's `static/bidder-params/sovrn.json` defines it:
 * exactly one of `tagid` and its deprecated spelling `tagId` (strings), an optional `bidfloor`
 * (a number, or a string holding one) and an optional `adunitcode`. Keys it does not name are
 * allowed.
 */
export const sovrnParamsSchema = Type.Object(
  {
    tagid: Type.Optional(Type.String({ description: 'The Sovrn ad tag of this imp; it becomes imp.tagid' })),
    tagId: Type.Optional(Type.String({ description: 'Deprecated spelling of tagid' })),
    bidfloor: Type.Optional(Type.Union([Type.Number(), Type.String()], { description: 'The minimum CPM in USD, used when the imp has no bidfloor' })),
    adunitcode: Type.Optional(Type.String({ description: 'The ad unit code; sent as given, inside imp.ext.bidder' })),
  },
  {
    additionalProperties: true,
    // Prebid Server's schema says oneOf: naming both spellings is refused too.
    oneOf: [{ required: ['tagid'] }, { required: ['tagId'] }],
  },
);
