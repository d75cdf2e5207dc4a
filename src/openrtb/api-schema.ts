import Type from 'typebox';

/**
 * The OpenRTB 2.6 request and response of `POST /openrtb2/auction`, as JSON Schema (TypeBox),
 * for `docs/openapi.json`: the outline only (the types of the fields openbid reads). Fields a
 * stored request may supply (`id`, `imp`, `site`) are not required here; `validate-request.ts`
 * checks the merged request and lists every problem in one 400.
 */

const JsonObject = Type.Object({});

/** One imp: at least one of `banner`, `video`, `audio`, `native`; bidders in `ext.prebid.bidder`. */
export const ImpSchema = Type.Object({
  id: Type.Optional(Type.String({ minLength: 1 })),
  banner: Type.Optional(JsonObject),
  video: Type.Optional(JsonObject),
  audio: Type.Optional(JsonObject),
  native: Type.Optional(JsonObject),
  bidfloor: Type.Optional(Type.Number({ minimum: 0 })),
  bidfloorcur: Type.Optional(Type.String()),
  tagid: Type.Optional(Type.String()),
  ext: Type.Optional(JsonObject),
});

/** An OpenRTB 2.6 bid request with Prebid's extensions. */
export const BidRequestSchema = Type.Object({
  id: Type.Optional(Type.String({ minLength: 1 })),
  imp: Type.Optional(Type.Array(ImpSchema)),
  site: Type.Optional(JsonObject),
  app: Type.Optional(JsonObject),
  dooh: Type.Optional(JsonObject),
  device: Type.Optional(JsonObject),
  user: Type.Optional(JsonObject),
  regs: Type.Optional(JsonObject),
  source: Type.Optional(JsonObject),
  tmax: Type.Optional(Type.Integer({ minimum: 0 })),
  cur: Type.Optional(Type.Array(Type.String())),
  test: Type.Optional(Type.Integer()),
  ext: Type.Optional(JsonObject),
});

/** An OpenRTB 2.6 bid response: seats of bids, and Prebid's `ext` (errors, warnings, timings). */
export const BidResponseSchema = Type.Object({
  id: Type.String(),
  seatbid: Type.Optional(Type.Array(Type.Object({ seat: Type.Optional(Type.String()), bid: Type.Array(JsonObject) }))),
  cur: Type.Optional(Type.String()),
  nbr: Type.Optional(Type.Integer()),
  ext: Type.Optional(JsonObject),
});
