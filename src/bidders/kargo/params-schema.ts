import Type from 'typebox';

/**
 * `imp.ext.bidder` for Kargo, as Prebid Server's `static/bidder-params/kargo.json` defines it:
 * exactly one of `placementId` and its deprecated spelling `adSlotID`, both strings (an empty
 * string is accepted). Keys it does not name are allowed.
 */
export const kargoParamsSchema = Type.Object(
  {
    placementId: Type.Optional(Type.String({ description: 'The Kargo ad slot placement (its ad unit code or placement id)' })),
    adSlotID: Type.Optional(Type.String({ description: 'Deprecated spelling of placementId' })),
  },
  {
    additionalProperties: true,
    // Prebid Server's schema says oneOf: naming both is refused, as naming neither.
    oneOf: [{ required: ['placementId'] }, { required: ['adSlotID'] }],
  },
);
