import Type from 'typebox';

/**
 * `imp.ext.bidder` for OpenX, as Prebid Server's `static/bidder-params/openx.json` defines it:
 * `unit` required (a non-negative number, or a string of digits), and at least one of
 * `delDomain` (a host name ending in a 2–3 letter label) and `platform` (a UUID). Keys it does
 * not name are allowed.
 */
export const openxParamsSchema = Type.Object(
  {
    unit: Type.Union([Type.Number({ minimum: 0 }), Type.String({ pattern: '^[0-9]+$' })], { description: 'The ad unit id; it becomes imp.tagid' }),
    delDomain: Type.Optional(Type.String({ pattern: '\\.[a-zA-Z]{2,3}$', format: 'hostname', description: 'The delivery domain of the customer' })),
    platform: Type.Optional(Type.String({ format: 'uuid', description: 'The platform id of the customer' })),
    customFloor: Type.Optional(
      Type.Union([Type.Number({ minimum: 0 }), Type.String({ pattern: '^[0-9]+(\\.[0-9]+)?$' })], { description: 'The minimum CPM in USD, used when the imp has no bidfloor' }),
    ),
    customParams: Type.Optional(Type.Record(Type.String(), Type.Unknown(), { description: 'Key-value pairs for targeting, sent in imp.ext.customParams' })),
  },
  {
    additionalProperties: true,
    // Either identifies the customer; OpenX needs one of them.
    anyOf: [{ required: ['delDomain'] }, { required: ['platform'] }],
  },
);
