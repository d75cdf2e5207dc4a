import Type from 'typebox';

/**
 * The wire shapes of `/cookie_sync`, `/setuid`, `/getuids` and `/optout`, as JSON Schema
 * (TypeBox): what `docs/openapi.json` publishes. `cookie-sync-request.ts`, `setuid.ts` and
 * `optout.ts` stay the validators (Prebid Server's messages); `test/integration/openapi-schemas.test.ts`
 * holds the `/cookie_sync` body to its parser.
 */

const BidderFilterSchema = Type.Object({
  filter: Type.Union([Type.Literal('include'), Type.Literal('exclude')]),
  bidders: Type.Union([Type.Literal('*'), Type.Array(Type.String())]),
});

/** `POST /cookie_sync` body; every field optional, `null` as absent. */
export const CookieSyncRequestSchema = Type.Object({
  bidders: Type.Optional(Type.Union([Type.Array(Type.String(), { maxItems: 1000 }), Type.Null()])),
  gdpr: Type.Optional(Type.Union([Type.Integer(), Type.Null()], { description: '0 or 1.' })),
  gdpr_consent: Type.Optional(Type.Union([Type.String(), Type.Null()])),
  us_privacy: Type.Optional(Type.Union([Type.String(), Type.Null()])),
  limit: Type.Optional(Type.Union([Type.Integer(), Type.Null()])),
  gpp: Type.Optional(Type.Union([Type.String(), Type.Null()])),
  gpp_sid: Type.Optional(Type.Union([Type.String(), Type.Null()], { description: 'Comma-separated section ids.' })),
  coopSync: Type.Optional(Type.Union([Type.Boolean(), Type.Null()])),
  filterSettings: Type.Optional(
    Type.Union([Type.Object({ iframe: Type.Optional(Type.Union([BidderFilterSchema, Type.Null()])), image: Type.Optional(Type.Union([BidderFilterSchema, Type.Null()])) }), Type.Null()]),
  ),
  account: Type.Optional(Type.Union([Type.String(), Type.Null()])),
  debug: Type.Optional(Type.Union([Type.Boolean(), Type.Null()])),
});

/** `POST /cookie_sync` answer, in Prebid Server's shape (`CookieSyncAnswer`). */
export const CookieSyncResponseSchema = Type.Object({
  status: Type.Union([Type.Literal('ok'), Type.Literal('no_cookie')]),
  bidder_status: Type.Array(
    Type.Object({
      bidder: Type.String(),
      no_cookie: Type.Literal(true),
      usersync: Type.Object({ url: Type.String(), type: Type.String(), supportCORS: Type.Optional(Type.Literal(true)) }),
    }),
  ),
  debug: Type.Optional(Type.Array(Type.Object({ bidder: Type.String(), error: Type.String() }))),
});

/** `GET /setuid` query. */
export const SetuidQuerySchema = Type.Object({
  bidder: Type.String({ minLength: 1, description: 'A bidder code or cookie family.' }),
  uid: Type.Optional(Type.String({ description: 'The id to keep; empty or absent removes it.' })),
  f: Type.Optional(Type.String({ pattern: '^[bBiI]$', description: '`b`: empty HTML; `i`: a 1×1 PNG.' })),
  account: Type.Optional(Type.String()),
  gdpr: Type.Optional(Type.String({ pattern: '^[01]?$' })),
  gdpr_consent: Type.Optional(Type.String()),
  gpp: Type.Optional(Type.String()),
  gpp_sid: Type.Optional(Type.String()),
});

/** `GET /getuids` answer: `{}` when the cookie holds no ids. */
export const GetuidsResponseSchema = Type.Object({ buyeruids: Type.Optional(Type.Record(Type.String(), Type.String())) });

/** `/optout` parameters, in the query or a form body. */
export const OptOutParamsSchema = Type.Object({
  optout: Type.Optional(Type.String({ description: 'Non-empty: opt out; empty or absent: opt back in.' })),
  'g-recaptcha-response': Type.Optional(Type.String({ description: 'Checked when `user_sync.recaptcha.secret` is set.' })),
});
