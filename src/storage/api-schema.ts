import Type from 'typebox';

/**
 * The wire shapes of module storage, as JSON Schema (TypeBox): what `docs/openapi.json`
 * publishes. `storage-entry.ts` stays the validator (every problem listed, limits from config);
 * `test/integration/openapi-schemas.test.ts` holds both to the same requests.
 */

/** `JSON`, `XML` or `TEXT` in any letter case (JSON Schema has no case-insensitive flag). */
const STORAGE_TYPE_PATTERN = '^([jJ][sS][oO][nN]|[xX][mM][lL]|[tT][eE][xX][tT])$';

/** A storage write. Unknown fields are ignored. */
export const StorageWriteSchema = Type.Object({
  key: Type.String({ minLength: 1, description: 'At most `storage.max_key_length` characters.' }),
  value: Type.String({ description: 'At most `storage.max_value_bytes` UTF-8 bytes.' }),
  type: Type.String({ pattern: STORAGE_TYPE_PATTERN, description: '`json`, `xml` or `text`, any letter case; answered in lower case.' }),
  application: Type.String({ minLength: 1, description: 'A configured application.' }),
  ttlseconds: Type.Optional(Type.Integer({ minimum: 1, description: 'Default `storage.default_ttl_seconds`; at most `storage.max_ttl_seconds`.' })),
});

/** A storage read's answer: the entry as written, `type` in lower case. */
export const StorageEntrySchema = Type.Object({
  key: Type.String(),
  type: Type.Union([Type.Literal('json'), Type.Literal('xml'), Type.Literal('text')]),
  value: Type.String(),
});

/** A storage read's query: `application` (or `a`) and `key` (or `k`), as Prebid Server Java sends them. */
export const StorageReadQuerySchema = Type.Object(
  {
    application: Type.Optional(Type.String({ minLength: 1, description: 'The application; or `a`.' })),
    a: Type.Optional(Type.String({ minLength: 1, description: 'Short for `application`.' })),
    key: Type.Optional(Type.String({ minLength: 1, description: 'The key; or `k`.' })),
    k: Type.Optional(Type.String({ minLength: 1, description: 'Short for `key`.' })),
  },
  { allOf: [{ anyOf: [{ required: ['application'] }, { required: ['a'] }] }, { anyOf: [{ required: ['key'] }, { required: ['k'] }] }] },
);
