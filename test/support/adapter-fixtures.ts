import assert from 'node:assert/strict';
import { readdirSync, readFileSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { describe, it } from 'node:test';
import type { AdapterHostConfig, AdapterModule, BidderError, RequestContext, RequestData } from '../../src/bidders/adapter.js';
import { compileParamsCheck } from '../../src/bidders/params.js';
import type { BidRequest } from '../../src/openrtb/types.js';

/**
 * An adapter fixture: the request one bidder receives from the exchange (its imps only, its params
 * in `imp[].ext.bidder`), the HTTP calls the adapter must ask for, the answer each gets, and the
 * bids and errors that must come out. The adapter runs as a pure function: no socket is opened
 * (the exchange's own fixtures cover the calls over real sockets).
 */
export interface AdapterFixture {
  readonly description: string;
  /** Overrides the adapter's default endpoint, as `adapters.<code>.endpoint` does. */
  readonly endpoint?: string;
  readonly bidderCode?: string;
  /** Rates for `convertCurrency`: from → to → rate. */
  readonly rates?: Record<string, Record<string, number>>;
  readonly globalPrivacyControl?: boolean;
  readonly entryPoint?: 'auction' | 'amp';
  /** The host's settings for the bidder and the server's facts; unset fields are {@link TEST_ADAPTER_HOST}'s. */
  readonly host?: Partial<AdapterHostConfig>;
  readonly request: BidRequest;
  /** When set, every imp's `ext.bidder` must pass (true) or fail (false) the params schema. */
  readonly paramsValid?: boolean;
  readonly calls?: readonly AdapterFixtureCall[];
  readonly expectedRequestErrors?: readonly ExpectedError[];
  /**
   * One entry per call that answered 200, in call order: the bids of its answer, and its Protected
   * Audience configs (`fledgeAuctionConfigs`, `[{ impId, config }]`) when it has any.
   */
  readonly expectedBids?: readonly { currency: string; bids: readonly unknown[]; fledgeAuctionConfigs?: readonly unknown[] }[];
  readonly expectedBidErrors?: readonly ExpectedError[];
}

export interface AdapterFixtureCall {
  readonly expectedRequest: {
    readonly method?: 'GET' | 'POST';
    readonly uri: string;
    /** Compared as parsed JSON. */
    readonly body?: unknown;
    /** Each listed header must have this value. */
    readonly headers?: Record<string, string>;
    readonly impIds?: readonly string[];
  };
  readonly response: {
    readonly status: number;
    /** A string is the body as is; anything else its JSON text. */
    readonly body?: unknown;
    readonly headers?: Record<string, string>;
  };
}

/** `message` must equal, or `messagePattern` (a regular expression) must match. */
export interface ExpectedError {
  readonly code: number;
  readonly message?: string;
  readonly messagePattern?: string;
}

/** The host settings adapter tests run with unless they say otherwise: nothing configured. */
export const TEST_ADAPTER_HOST: AdapterHostConfig = { externalUrl: 'http://localhost:8000', serverVersion: '', extraInfo: '' };

/** A request context for an adapter's unit tests: nothing configured, no currency conversion, an auction; `over` replaces any of it. */
export const testRequestContext = (over: Partial<RequestContext> = {}): RequestContext => ({
  endpoint: 'http://127.0.0.1:9/',
  bidderCode: 'bidder',
  convertCurrency: (amount) => amount,
  globalPrivacyControl: false,
  entryPoint: 'auction',
  host: TEST_ADAPTER_HOST,
  ...over,
});

const contextFor = (fixture: AdapterFixture, module: AdapterModule, host: Partial<AdapterHostConfig>): RequestContext => ({
  host: { ...TEST_ADAPTER_HOST, ...host, ...fixture.host },
  endpoint: fixture.endpoint ?? module.info.endpoint,
  bidderCode: fixture.bidderCode ?? 'bidder',
  globalPrivacyControl: fixture.globalPrivacyControl ?? false,
  entryPoint: fixture.entryPoint ?? 'auction',
  convertCurrency: (amount, from, to) => {
    if (from === to) return amount;
    const rate = fixture.rates?.[from]?.[to] ?? (fixture.rates?.[to]?.[from] ? 1 / fixture.rates[to][from] : undefined);
    if (rate === undefined) throw new Error(`Currency conversion rate not found: '${from}' => '${to}'`);
    return amount * rate;
  },
});

const assertErrors = (actual: readonly BidderError[], expected: readonly ExpectedError[] | undefined, what: string): void => {
  const want = expected ?? [];
  assert.equal(actual.length, want.length, `${what}: ${JSON.stringify(actual)}`);
  want.forEach((e, i) => {
    const got = actual[i]!;
    assert.equal(got.code, e.code, `${what}[${i}] code: ${got.message}`);
    if (e.message !== undefined) assert.equal(got.message, e.message, `${what}[${i}] message`);
    if (e.messagePattern !== undefined) assert.match(got.message, new RegExp(e.messagePattern), `${what}[${i}] message`);
  });
};

const responseBody = (body: unknown): string => (body === undefined ? '' : typeof body === 'string' ? body : JSON.stringify(body));

/** Runs one fixture file against an adapter; exported for single-fixture debugging. */
export const runAdapterFixture = (module: AdapterModule, fixture: AdapterFixture, host: Partial<AdapterHostConfig> = {}): void => {
  const request = structuredClone(fixture.request);
  if (fixture.paramsValid !== undefined) {
    const check = compileParamsCheck(module.info.paramsSchema);
    for (const imp of request.imp) {
      const problems = check(imp.ext?.bidder);
      assert.equal(problems.length === 0, fixture.paramsValid, `params of imp ${imp.id}: ${problems.join('; ')}`);
    }
  }
  const made = module.adapter.makeRequests(request, contextFor(fixture, module, host));
  assertErrors(made.errors, fixture.expectedRequestErrors, 'makeRequests errors');
  const calls = fixture.calls ?? [];
  assert.equal(made.requests.length, calls.length, `number of calls: ${JSON.stringify(made.requests.map((r) => r.uri))}`);

  const bidErrors: BidderError[] = [];
  const bids: { currency: string; bids: unknown[]; fledgeAuctionConfigs?: unknown[] }[] = [];
  calls.forEach((call, i) => {
    const got: RequestData = made.requests[i]!;
    const want = call.expectedRequest;
    assert.equal(got.method, want.method ?? 'POST', `call ${i} method`);
    assert.equal(got.uri, want.uri, `call ${i} uri`);
    if (want.body !== undefined) assert.deepEqual(JSON.parse(got.body ?? 'null') as unknown, want.body, `call ${i} body`);
    for (const [name, value] of Object.entries(want.headers ?? {})) {
      const actual = Object.entries(got.headers).find(([n]) => n.toLowerCase() === name.toLowerCase())?.[1];
      assert.equal(actual, value, `call ${i} header ${name}`);
    }
    if (want.impIds !== undefined) assert.deepEqual([...got.impIds], [...want.impIds], `call ${i} impIds`);
    if (call.response.status !== 200) return;
    const result = module.adapter.makeBids(request, got, { status: 200, headers: call.response.headers ?? {}, body: responseBody(call.response.body) });
    bidErrors.push(...result.errors);
    const answer = result.response;
    if (answer === undefined) return;
    const asJson = (value: unknown): unknown => JSON.parse(JSON.stringify(value)) as unknown;
    bids.push({
      currency: answer.currency,
      bids: answer.bids.map(asJson),
      ...(answer.fledgeAuctionConfigs !== undefined ? { fledgeAuctionConfigs: answer.fledgeAuctionConfigs.map(asJson) } : {}),
    });
  });
  assertErrors(bidErrors, fixture.expectedBidErrors, 'makeBids errors');
  if (fixture.expectedBids !== undefined) assert.deepEqual(bids, fixture.expectedBids, 'bids');
};

/** Runs every `*.json` fixture in `dir` (and its subfolders) as one test each, with `host` settings under each fixture's own. */
export const runAdapterFixtureDir = (dir: string, module: AdapterModule, host: Partial<AdapterHostConfig> = {}): void => {
  const files = readdirSync(dir, { recursive: true })
    .map(String)
    .filter((f) => f.endsWith('.json') && statSync(join(dir, f)).isFile())
    .sort();
  assert.ok(files.length > 0, `no fixtures in ${dir}`);
  describe(`adapter fixtures in ${dir}`, () => {
    for (const file of files) {
      const fixture = JSON.parse(readFileSync(join(dir, file), 'utf8')) as AdapterFixture;
      it(`${file}: ${fixture.description}`, () => runAdapterFixture(module, fixture, host));
    }
  });
};
