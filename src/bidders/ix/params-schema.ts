import Type from 'typebox';

const siteIdOf = (description: string) => Type.Optional(Type.String({ minLength: 1, description }));

/**
 * `imp.ext.bidder` for Index Exchange, as Prebid Server's `static/bidder-params/ix.json` defines
 * it: exactly one of `siteid`, `siteId` and `siteID` (a non-empty string), an optional `size`
 * (two integers) and an optional `sid` (slot id). Keys it does not name are allowed.
 */
export const ixParamsSchema = Type.Object(
  {
    siteid: siteIdOf('The Index Exchange site selling the impression (preferred spelling)'),
    siteId: siteIdOf('The Index Exchange site selling the impression'),
    siteID: siteIdOf('The Index Exchange site selling the impression'),
    size: Type.Optional(Type.Array(Type.Integer(), { minItems: 2, maxItems: 2, description: 'Width and height of the slot' })),
    sid: Type.Optional(Type.String({ minLength: 1, description: 'Slot id; sent as imp.ext.sid' })),
  },
  {
    additionalProperties: true,
    // Prebid Server's schema says oneOf: naming two spellings at once is refused.
    oneOf: [{ required: ['siteid'] }, { required: ['siteId'] }, { required: ['siteID'] }],
  },
);
