import Type from 'typebox';

/**
 * The wire shapes of `/vtrack`, as JSON Schema (TypeBox): what `docs/openapi.json` publishes.
 * `vtrack-request.ts` stays the validator (every problem listed); `test/integration/openapi-schemas.test.ts`
 * holds both to the same requests. Its answers are `/cache`'s.
 */

/** A non-negative integer, as a number or a string of digits (the interface shows both). */
const IntegerOrDigits = Type.Union([Type.Integer({ minimum: 0 }), Type.String({ pattern: '^\\d{1,16}$' })]);

/** One VAST put: the impression tag is inserted before it is cached. */
export const VtrackPutSchema = Type.Object({
  bidid: Type.String({ minLength: 1 }),
  bidder: Type.String({ minLength: 1 }),
  aid: Type.String({ minLength: 1, description: 'Auction id.' }),
  type: Type.Literal('xml'),
  value: Type.String({ description: 'VAST text; never parsed as XML.' }),
  timestamp: IntegerOrDigits,
  ttlseconds: IntegerOrDigits,
});

/** `POST /vtrack` body. */
export const VtrackPutRequestSchema = Type.Object({ puts: Type.Array(VtrackPutSchema) });

/** `POST /vtrack` query. */
export const VtrackPostQuerySchema = Type.Object({ a: Type.String({ minLength: 1, description: 'Account id.' }) });

/** `GET /vtrack` query: `uuid`, or the form Prebid.js builds from its `cache.url`, `a=<account>?uuid=<id>`. */
export const VtrackGetQuerySchema = Type.Object(
  {
    uuid: Type.Optional(Type.String({ minLength: 1 })),
    a: Type.Optional(Type.String({ description: 'Carries `?uuid=<id>` glued on when Prebid.js built the URL.' })),
  },
  { anyOf: [{ required: ['uuid'] }, { required: ['a'] }] },
);
