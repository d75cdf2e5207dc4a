import Type from 'typebox';

const keywordList = Type.Array(
  Type.Object(
    {
      key: Type.String(),
      value: Type.Optional(Type.Array(Type.String(), { minItems: 1 })),
    },
    { additionalProperties: true, description: 'A key with its values, for buy-side segment targeting' },
  ),
  { minItems: 1 },
);

/**
 * `imp.ext.bidder` for AppNexus (Microsoft Curate), as Prebid Server's
 * `static/bidder-params/appnexus.json` defines it. An imp names its placement by id
 * (`placement_id`, or the older `placementId`: exactly one of them) or by `member` with an
 * inventory code (`inv_code`, or the older `invCode`); naming both ways at once is refused, and so
 * is the old trio `placementId` + `invCode` + `member`. Keys it does not name are allowed.
 */
export const appnexusParamsSchema = Type.Object(
  {
    placement_id: Type.Optional(Type.Union([Type.Integer(), Type.String()], { description: 'The placement of this imp' })),
    placementId: Type.Optional(Type.Union([Type.Integer(), Type.String()], { description: 'Deprecated spelling of placement_id' })),
    inv_code: Type.Optional(Type.String({ description: 'A code naming the inventory of this placement (with member)' })),
    invCode: Type.Optional(Type.String({ description: 'Deprecated spelling of inv_code' })),
    member: Type.Optional(Type.Union([Type.Integer(), Type.String()], { description: 'The member selling the imp; sent as member_id in the URL' })),
    keywords: Type.Optional(
      Type.Union([
        Type.String({ minLength: 1, description: 'Keywords as AppNexus reads them: "k=v,k=v2,k3"' }),
        keywordList,
        Type.Record(Type.String(), Type.Array(Type.String()), { description: 'key → values' }),
      ]),
    ),
    traffic_source_code: Type.Optional(Type.String({ description: 'The third-party source of this imp' })),
    trafficSourceCode: Type.Optional(Type.String({ description: 'Deprecated spelling of traffic_source_code' })),
    reserve: Type.Optional(Type.Number({ description: 'The lowest acceptable bid, as CPM; the floor when imp.bidfloor is not positive' })),
    position: Type.Optional(Type.Union([Type.Literal('above'), Type.Literal('below')], { description: 'Above or below the fold (banner.pos 1 or 3)' })),
    use_pmt_rule: Type.Optional(Type.Boolean({ description: 'Apply the payment rule' })),
    use_payment_rule: Type.Optional(Type.Boolean({ description: 'Deprecated spelling of use_pmt_rule, which wins when both are set' })),
    generate_ad_pod_id: Type.Optional(Type.Boolean({ description: 'Give each ad pod an id (video endpoint only); the same for every imp' })),
    private_sizes: Type.Optional(
      Type.Array(Type.Object({ w: Type.Integer(), h: Type.Integer() }, { additionalProperties: true }), { description: 'Private sizes, passed on as given' }),
    ),
    ext_inv_code: Type.Optional(Type.String({ description: 'A reporting code passed on as given' })),
    external_imp_id: Type.Optional(Type.String({ description: 'The id of an externally generated auction' })),
  },
  {
    additionalProperties: true,
    oneOf: [{ oneOf: [{ required: ['placementId'] }, { required: ['placement_id'] }] }, { oneOf: [{ required: ['invCode', 'member'] }, { required: ['inv_code', 'member'] }] }],
    not: { required: ['placementId', 'invCode', 'member'] },
  },
);
