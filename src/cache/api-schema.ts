import Type from 'typebox';

/**
 * The wire shapes of `/cache`, as JSON Schema (TypeBox): what `docs/openapi.json` publishes for
 * it. `put-request.ts` stays the validator (Prebid Cache's messages and order of checks, limits
 * from config); `test/integration/openapi-schemas.test.ts` holds both to the same requests, so a change
 * to one that the other does not follow fails there.
 */

/** One put: `xml` values are JSON strings (the XML text), `json` values any JSON, kept verbatim. */
export const CachePutSchema = Type.Object(
  {
    type: Type.Union([Type.Literal('xml'), Type.Literal('json')]),
    value: Type.Unknown({ description: 'For `xml` a string (the XML text); for `json` any JSON value, stored exactly as posted.' }),
    ttlseconds: Type.Optional(Type.Integer({ minimum: 0, description: 'Missing or 0: `max_ttl_seconds`; more is capped to it.' })),
    key: Type.Optional(Type.String({ description: 'Honoured only with `allow_setting_keys: true`; at most `max_key_length` characters.' })),
  },
  { allOf: [{ if: { properties: { type: { const: 'xml' } } }, then: { properties: { value: { type: 'string' } } } }] },
);

/** `POST /cache` body: the puts, written all or none. */
export const CachePutRequestSchema = Type.Object({ puts: Type.Array(CachePutSchema, { description: 'At most `max_num_values` puts.' }) });

/** `POST /cache` answer: one uuid per put, in put order (`""` for a key that already had an entry). */
export const CachePutResponseSchema = Type.Object({ responses: Type.Array(Type.Object({ uuid: Type.String() })) });

/** `GET /cache` query. */
export const CacheGetQuerySchema = Type.Object({ uuid: Type.String({ minLength: 1, description: 'A uuid a put answered (or a key, with keys allowed).' }) });
