import { isDeepStrictEqual } from 'node:util';
import type { AdapterHostConfig, AdapterModule, BidderError, RequestContext, RequestData, TypedBid } from '../../src/bidders/adapter.js';
import type { BidRequest } from '../../src/openrtb/types.js';

/**
 * A fixture as Prebid Server's adapter tests write it (`adapters/<bidder>/<bidder>test/**.json`):
 * the request, the HTTP calls expected with their mock answers, the bids and the errors. Only
 * the fields its Go runner reads are named here.
 */
export interface PbsFixture {
  readonly mockBidRequest: BidRequest;
  readonly httpCalls?: readonly {
    readonly expectedRequest: { readonly uri: string; readonly body?: unknown; readonly headers?: Record<string, string[]>; readonly impIDs?: string[] };
    readonly mockResponse: { readonly status: number; readonly body?: unknown; readonly headers?: Record<string, string[]> };
  }[];
  readonly expectedBidResponses?: readonly { currency?: string; bids?: readonly PbsExpectedBid[]; fledgeauctionconfigs?: unknown }[];
  readonly expectedMakeRequestsErrors?: readonly PbsExpectedError[];
  readonly expectedMakeBidsErrors?: readonly PbsExpectedError[];
}

interface PbsExpectedBid {
  readonly bid: unknown;
  readonly type: string;
  readonly seat?: string;
  readonly video?: { duration?: number; primary_category?: string };
}

interface PbsExpectedError {
  readonly value: string;
  readonly comparison: 'literal' | 'regex';
}

/** What Prebid Server's Go test gives the adapter's builder, which its fixtures do not hold. */
export interface PbsCheckOptions {
  /** The endpoint the Go test builds the adapter with (`config.Adapter{Endpoint: …}` in `<bidder>_test.go`). */
  readonly endpoint: string;
  /** The bidder name the Go test builds it as. */
  readonly bidderCode: string;
  readonly host?: Partial<AdapterHostConfig>;
  /** The fixture sits in an `amptest` folder: the auction came through AMP. */
  readonly entryPoint?: 'auction' | 'amp';
}

/** The Go test's server: `config.Server{ExternalUrl: "http://hosturl.com"}`, no version set. */
const GO_TEST_HOST: AdapterHostConfig = { externalUrl: 'http://hosturl.com', serverVersion: '', extraInfo: '' };

/** Go's canonical header key: `content-type` → `Content-Type`. */
const canonicalHeader = (name: string): string => name.toLowerCase().replace(/(^|-)([a-z])/g, (_m, dash: string, c: string) => dash + c.toUpperCase());

const headersAsGo = (headers: Readonly<Record<string, string>>): Record<string, string[]> => {
  const out: Record<string, string[]> = {};
  for (const [name, value] of Object.entries(headers)) (out[canonicalHeader(name)] ??= []).push(value);
  return out;
};

/**
 * JSON as Go's encoder leaves it, for comparing: a `null` member is no member (Go writes nil
 * slices of fields without `omitempty` as null where JavaScript leaves them out).
 */
const withoutNulls = (value: unknown): unknown => {
  if (Array.isArray(value)) return value.map(withoutNulls);
  if (value === null || typeof value !== 'object') return value;
  const out: Record<string, unknown> = {};
  for (const [k, v] of Object.entries(value)) if (v !== null) out[k] = withoutNulls(v);
  return out;
};

/** An OpenRTB bid as Go's `openrtb2.Bid` marshals it: every member but id, impid and price is `omitempty`. */
export const bidAsGoJson = (bid: unknown): unknown => {
  const out: Record<string, unknown> = {};
  for (const [k, v] of Object.entries(JSON.parse(JSON.stringify(bid)) as Record<string, unknown>)) {
    const zero = v === null || v === '' || v === 0 || v === false || (Array.isArray(v) && v.length === 0);
    if (!zero || k === 'id' || k === 'impid' || k === 'price') out[k] = v;
  }
  return withoutNulls(out);
};

const parseJson = (text: string | undefined): unknown => {
  if (text === undefined || text === '') return undefined;
  try {
    return JSON.parse(text) as unknown;
  } catch {
    return text;
  }
};

type PbsExpectedAnswer = NonNullable<PbsFixture['expectedBidResponses']>[number];

/**
 * An expected answer with its auction configs under `fledgeauctionconfigs` whatever the case its
 * fixture spells the key in (Go's decoder matches keys regardless of case; fixtures write
 * `fledgeAuctionConfigs`), each config without `bidder` and `adapter`: Go's adapter names itself
 * there, where openbid's exchange, which knows the bidder, adds them.
 */
const withGoFledgeKey = (answer: PbsExpectedAnswer): PbsExpectedAnswer => {
  const key = Object.keys(answer).findLast((k) => k.toLowerCase() === 'fledgeauctionconfigs');
  if (key === undefined) return answer;
  const configs = (answer as Record<string, unknown>)[key];
  const stripped = Array.isArray(configs)
    ? configs.map((c: unknown) => {
        if (typeof c !== 'object' || c === null || Array.isArray(c)) return c;
        const { bidder: _bidder, adapter: _adapter, ...rest } = c as Record<string, unknown>;
        return rest;
      })
    : configs;
  return { ...answer, fledgeauctionconfigs: stripped };
};

/** The conversion Prebid Server's test runner sets up from `ext.prebid.currency.rates`. */
const convertWith = (request: BidRequest): RequestContext['convertCurrency'] => {
  const prebid = (request.ext as { prebid?: { currency?: { rates?: Record<string, Record<string, number>> } } } | undefined)?.prebid;
  const rates = prebid?.currency?.rates ?? {};
  return (amount, from, to) => {
    if (from === to) return amount;
    const direct = rates[from]?.[to];
    if (direct !== undefined) return amount * direct;
    const inverse = rates[to]?.[from];
    if (inverse !== undefined && inverse !== 0) return amount / inverse;
    throw new Error(`Currency conversion rate not found: '${from}' => '${to}'`);
  };
};

const sameRequest = (got: RequestData, want: NonNullable<PbsFixture['httpCalls']>[number]['expectedRequest']): string | undefined => {
  if (got.uri !== want.uri) return `uri ${got.uri} is not ${want.uri}`;
  if (want.headers !== undefined && !isDeepStrictEqual(headersAsGo(got.headers), want.headers)) {
    return `headers ${JSON.stringify(headersAsGo(got.headers))} are not ${JSON.stringify(want.headers)}`;
  }
  const sorted = (ids: readonly string[]): string[] => [...ids].sort();
  if (want.impIDs !== undefined && !isDeepStrictEqual(sorted(got.impIds), sorted(want.impIDs))) return `imp ids ${JSON.stringify(got.impIds)} are not ${JSON.stringify(want.impIDs)}`;
  const body = withoutNulls(parseJson(got.body));
  if (!isDeepStrictEqual(body, withoutNulls(want.body))) return `body ${got.body ?? ''} is not ${JSON.stringify(want.body)}`;
  return undefined;
};

/** An error the adapter gave, or `null` where the exchange, not the adapter, reports the call's status. */
type ActualError = BidderError | null;

/** What a check found: `problems` fail it; `wording` are errors in the right place worded otherwise. */
export interface PbsCheckResult {
  readonly problems: string[];
  readonly wording: string[];
}

const checkErrors = (result: PbsCheckResult, what: string, actual: readonly ActualError[], expected: readonly PbsExpectedError[] | undefined): void => {
  const want = expected ?? [];
  if (actual.length !== want.length) {
    result.problems.push(`${what}: ${actual.length} errors, expected ${want.length}: ${JSON.stringify(actual.map((e) => e?.message ?? '(status error)'))}`);
    return;
  }
  want.forEach((e, i) => {
    const got = actual[i];
    if (got === null || got === undefined) return;
    const ok = e.comparison === 'regex' ? new RegExp(e.value).test(got.message) : got.message === e.value;
    if (!ok) result.wording.push(`${what}[${i}]: "${got.message}" does not ${e.comparison === 'regex' ? 'match' : 'equal'} "${e.value}"`);
  });
};

const bidAsGo = (typed: TypedBid): PbsExpectedBid => ({
  bid: bidAsGoJson(typed.bid),
  type: typed.type,
  seat: typed.seat ?? '',
  ...(typed.video !== undefined ? { video: { duration: typed.video.duration ?? 0, primary_category: typed.video.primaryCategory ?? '' } } : {}),
});

const FIXTURE_KEYS = ['mockBidRequest', 'httpCalls', 'expectedBidResponses', 'expectedMakeRequestsErrors', 'expectedMakeBidsErrors'] as const;

/**
 * The fixture with its top-level keys spelled as {@link PbsFixture} names them: Go's JSON decoder
 * matches field names in any case (some upstream fixtures write `httpcalls`), the last one winning.
 */
const withGoKeys = (fixture: PbsFixture): PbsFixture => {
  const out: Record<string, unknown> = {};
  for (const [key, value] of Object.entries(fixture)) {
    const known = FIXTURE_KEYS.find((k) => k.toLowerCase() === key.toLowerCase());
    out[known ?? key] = value;
  }
  return out as unknown as PbsFixture;
};

/**
 * Checks an adapter against one Prebid Server fixture as its Go runner does: calls matched in any
 * order (URI, headers when listed, imp ids, JSON body), errors in number and order, each answer's
 * currency (when named), bids (OpenRTB bid, type, seat, video) and auction configs. JSON is
 * compared as Go writes it (null members absent; a bid's zero members omitted). An error message
 * worded otherwise than Go's (mostly Go's JSON decoder's) is reported apart as `wording`.
 * Where openbid's contract differs, the exchange's part is played: a 204 answer is no bid and no
 * error, and any other status but 200 is one error the exchange words (so only its place in the
 * list is checked); an expected answer with no bids may be no answer.
 */
export const checkPbsFixture = (module: AdapterModule, given: PbsFixture, options: PbsCheckOptions): PbsCheckResult => {
  const fixture = withGoKeys(given);
  const result: PbsCheckResult = { problems: [], wording: [] };
  const { problems } = result;
  const request = structuredClone(fixture.mockBidRequest);
  const context: RequestContext = {
    endpoint: options.endpoint,
    bidderCode: options.bidderCode,
    convertCurrency: convertWith(request),
    globalPrivacyControl: false,
    entryPoint: options.entryPoint ?? 'auction',
    host: { ...GO_TEST_HOST, ...options.host },
  };
  const made = module.adapter.makeRequests(structuredClone(request), context);
  checkErrors(result, 'makeRequests errors', made.errors, fixture.expectedMakeRequestsErrors);
  const calls = fixture.httpCalls ?? [];
  if (made.requests.length !== calls.length) {
    problems.push(`${made.requests.length} calls, expected ${calls.length}: ${made.requests.map((r) => r.uri).join(', ')}`);
    return result;
  }
  const unmatched = new Set(made.requests.keys());
  const matched = calls.map((call, i) => {
    const reasons: string[] = [];
    for (const j of unmatched) {
      const reason = sameRequest(made.requests[j]!, call.expectedRequest);
      if (reason === undefined) {
        unmatched.delete(j);
        return made.requests[j]!;
      }
      reasons.push(reason);
    }
    problems.push(`call ${i} not made: ${reasons.join('; ')}`);
    return undefined;
  });
  if (problems.length > 0) return result;

  const bidErrors: ActualError[] = [];
  const answers: { currency: string; bids: PbsExpectedBid[]; fledge?: unknown }[] = [];
  calls.forEach((call, i) => {
    const status = call.mockResponse.status;
    if (status === 204) return;
    if (status !== 200) return void bidErrors.push(null);
    const body = call.mockResponse.body;
    const headers = Object.fromEntries(Object.entries(call.mockResponse.headers ?? {}).map(([k, v]) => [k.toLowerCase(), v.join(', ')]));
    const made = module.adapter.makeBids(structuredClone(request), matched[i]!, { status, headers, body: typeof body === 'string' ? body : body === undefined ? '' : JSON.stringify(body) });
    bidErrors.push(...made.errors);
    const answer = made.response;
    if (answer === undefined) return;
    answers.push({
      currency: answer.currency,
      bids: answer.bids.map(bidAsGo),
      ...(answer.fledgeAuctionConfigs !== undefined ? { fledge: answer.fledgeAuctionConfigs.map((c) => ({ impid: c.impId, config: c.config })) } : {}),
    });
  });
  checkErrors(result, 'makeBids errors', bidErrors, fixture.expectedMakeBidsErrors);

  const empty = (a: { bids?: readonly unknown[]; fledge?: unknown; fledgeauctionconfigs?: unknown }): boolean =>
    (a.bids ?? []).length === 0 && a.fledge === undefined && a.fledgeauctionconfigs === undefined;
  const want = (fixture.expectedBidResponses ?? []).map(withGoFledgeKey).filter((a) => !empty(a));
  const got = answers.filter((a) => !empty(a));
  if (got.length !== want.length) {
    problems.push(`${got.length} answers with bids, expected ${want.length}`);
    return result;
  }
  want.forEach((w, i) => {
    const g = got[i]!;
    if (w.currency !== undefined && w.currency !== '' && w.currency !== g.currency) problems.push(`answer ${i} currency ${g.currency}, expected ${w.currency}`);
    const wantBids = (w.bids ?? []).map((b) => ({ bid: withoutNulls(b.bid), type: b.type, seat: b.seat ?? '', ...(b.video !== undefined ? { video: { duration: b.video.duration ?? 0, primary_category: b.video.primary_category ?? '' } } : {}) }));
    if (!isDeepStrictEqual(g.bids, wantBids)) problems.push(`answer ${i} bids ${JSON.stringify(g.bids)}, expected ${JSON.stringify(wantBids)}`);
    if (!isDeepStrictEqual(g.fledge, w.fledgeauctionconfigs)) problems.push(`answer ${i} auction configs ${JSON.stringify(g.fledge)}, expected ${JSON.stringify(w.fledgeauctionconfigs)}`);
  });
  return result;
};
