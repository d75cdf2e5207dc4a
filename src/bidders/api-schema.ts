import Type from 'typebox';

/**
 * The answers of the bidder discovery endpoints, as JSON Schema (TypeBox), for
 * `docs/openapi.json`. The params schemas `GET /bidders/params` answers are the adapters' own.
 */

/** `GET /info/bidders` query: each flag `true` or `false` in any letter case. */
export const BidderListQuerySchema = Type.Object({
  enabledonly: Type.Optional(Type.String({ pattern: '^([tT][rR][uU][eE]|[fF][aA][lL][sS][eE])$', description: 'Leave out disabled bidders.' })),
  baseadaptersonly: Type.Optional(Type.String({ pattern: '^([tT][rR][uU][eE]|[fF][aA][lL][sS][eE])$', description: 'Leave out aliases.' })),
});

/** `GET /info/bidders` answer: codes, sorted. */
export const BidderListSchema = Type.Array(Type.String());

const MediaTypes = Type.Object({ mediaTypes: Type.Array(Type.String()) });

/** One bidder's details; a disabled bidder shows only `status`, `maintainer` and `aliasOf`. */
export const BidderInfoSchema = Type.Object({
  status: Type.Union([Type.Literal('ACTIVE'), Type.Literal('DISABLED')]),
  usesHttps: Type.Optional(Type.Boolean()),
  maintainer: Type.Optional(Type.Object({ email: Type.String() })),
  capabilities: Type.Optional(Type.Object({ app: Type.Optional(MediaTypes), site: Type.Optional(MediaTypes), dooh: Type.Optional(MediaTypes) })),
  aliasOf: Type.Optional(Type.String()),
});

/** `GET /bidders/params` answer: each bidder's params JSON Schema by code. */
export const BidderParamsSchema = Type.Record(Type.String(), Type.Object({}, { description: 'A JSON Schema.' }));
