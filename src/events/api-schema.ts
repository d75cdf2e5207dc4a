import Type from 'typebox';

/**
 * The query of `GET /event` as JSON Schema (TypeBox): what `docs/openapi.json` publishes.
 * `event-request.ts` stays the validator (every problem listed); `test/integration/openapi-schemas.test.ts`
 * holds both to the same queries. Empty values count as missing, hence `minLength`.
 */
export const EventQuerySchema = Type.Object({
  t: Type.Union([Type.Literal('win'), Type.Literal('imp')], { description: 'Event type.' }),
  b: Type.String({ minLength: 1, description: 'Bid id.' }),
  a: Type.String({ minLength: 1, description: 'Account id.' }),
  bidder: Type.String({ minLength: 1, description: 'Bidder code.' }),
  f: Type.Optional(Type.Union([Type.Literal('b'), Type.Literal('i')], { description: '`b` (default): empty 200; `i`: a 1×1 PNG.' })),
  ts: Type.Optional(Type.String({ pattern: '^\\d{1,16}$', description: 'Auction timestamp, milliseconds.' })),
  x: Type.Optional(Type.Union([Type.Literal('1'), Type.Literal('0')], { description: '`0`: answer without telling analytics.' })),
  int: Type.Optional(Type.String({ pattern: '^[A-Za-z0-9_-]{1,64}$', description: 'Integration name.' })),
  aid: Type.Optional(Type.String({ description: 'Auction id.' })),
});
