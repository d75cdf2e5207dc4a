import Type from 'typebox';

const id = (description: string) => Type.Optional(Type.Integer({ minimum: 0, description }));

/**
 * `imp.ext.bidder` for Criteo, as Prebid Server's `static/bidder-params/criteo.json` defines it:
 * a zone id or a network id (either spelling: `zoneid`/`zoneId`, `networkid`/`networkId`,
 * integers ≥ 0), an optional publisher id `pubid` (a non-empty string) and ad unit id `uid` (an
 * integer ≥ 0). Keys it does not name are allowed. The adapter reads none of them: Criteo does.
 */
export const criteoParamsSchema = Type.Object(
  {
    zoneid: id("The imp's zone id"),
    zoneId: id("The imp's zone id (preferred spelling)"),
    networkid: id("The imp's network id"),
    networkId: id("The imp's network id (preferred spelling)"),
    pubid: Type.Optional(Type.String({ minLength: 1, description: "The imp's publisher id" })),
    uid: id("The imp's ad unit id"),
  },
  {
    additionalProperties: true,
    // A zone or a network identifies the inventory; any spelling of either will do.
    anyOf: [{ required: ['zoneid'] }, { required: ['zoneId'] }, { required: ['networkid'] }, { required: ['networkId'] }],
  },
);
