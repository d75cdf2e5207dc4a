import Type from 'typebox';

/**
 * The wire shapes of `GET /openrtb2/amp`, as JSON Schema (TypeBox): what `docs/openapi.json`
 * publishes. `amp-query.ts` stays the reader: a value that does not parse is a warning, never a
 * 400, so only `tag_id` can refuse a request.
 */
export const AmpQuerySchema = Type.Object({
  tag_id: Type.String({ minLength: 1, description: 'The stored request to run.' }),
  account: Type.Optional(Type.String()),
  w: Type.Optional(Type.String({ description: 'Positive integer.' })),
  h: Type.Optional(Type.String({ description: 'Positive integer.' })),
  ow: Type.Optional(Type.String({ description: 'Override width.' })),
  oh: Type.Optional(Type.String({ description: 'Override height.' })),
  ms: Type.Optional(Type.String({ description: 'Sizes, `300x250,728x90`.' })),
  curl: Type.Optional(Type.String({ description: 'Canonical URL: `site.page`, `site.domain`.' })),
  slot: Type.Optional(Type.String({ description: '`imp.tagid`.' })),
  timeout: Type.Optional(Type.String({ description: 'Milliseconds.' })),
  targeting: Type.Optional(Type.String({ description: 'JSON object: `imp.ext.data`.' })),
  consent_string: Type.Optional(Type.String()),
  gdpr_consent: Type.Optional(Type.String()),
  consent_type: Type.Optional(Type.String()),
  gdpr_applies: Type.Optional(Type.String()),
  addtl_consent: Type.Optional(Type.String()),
  debug: Type.Optional(Type.String({ description: '`1`: debug output in `ext.debug`.' })),
  __amp_source_origin: Type.Optional(Type.String({ description: 'Echoed in `AMP-Access-Control-Allow-Source-Origin`.' })),
});

/** `GET /openrtb2/amp` answer (`AmpResponse`). */
export const AmpResponseSchema = Type.Object({
  targeting: Type.Record(Type.String(), Type.String()),
  errors: Type.Optional(Type.Record(Type.String(), Type.Array(Type.Object({ code: Type.Number(), message: Type.String() })))),
  ext: Type.Optional(Type.Object({ warnings: Type.Optional(Type.Unknown()), debug: Type.Optional(Type.Unknown()) })),
});
