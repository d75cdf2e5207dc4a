import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { Type } from 'typebox';
import type { Adapter, AdapterModule, RequestData } from '../bidders/adapter.js';
import type { Bidder } from '../bidders/registry.js';
import type { BidRequest } from '../openrtb/types.js';
import { callBidder } from './bidder-call.js';
import type { BidderCallOptions } from './bidder-call.js';
import type { BidderHttpClient } from './bidder-http.js';
import { networkFailureReason } from './network-failure.js';

const twoImps: BidRequest = { id: 'r', imp: [{ id: 'i1', banner: { w: 300, h: 250 } }, { id: 'i2', banner: { w: 300, h: 250 } }] };

/** An adapter calling once per imp; each answer (its body) is the number of bids to make for that imp. */
const perImpAdapter: AdapterModule = {
  info: { endpoint: 'http://127.0.0.1:1/', mediaTypes: { site: ['banner'], app: [] }, paramsSchema: Type.Object({}) },
  adapter: {
    makeRequests: (req) => ({ requests: req.imp.map((imp): RequestData => ({ method: 'POST', uri: `http://127.0.0.1:1/${imp.id}`, body: '{}', headers: {}, impIds: [imp.id] })), errors: [] }),
    makeBids: (_req, call, response) => {
      const impid = call.impIds[0]!;
      const bids = Array.from({ length: Number(response.body) }, (_, n) => ({ bid: { id: `${impid}-${n}`, impid, price: 1, crid: 'c' }, type: 'banner' as const }));
      return { response: { currency: 'USD', bids }, errors: [] };
    },
  },
};

const bidder = { code: 'many', baseCode: 'many', module: perImpAdapter, endpoint: perImpAdapter.info.endpoint } as unknown as Bidder;

/** Answers every call at once with `count` bids, the first imp's call first. */
const httpAnswering = (counts: Readonly<Record<string, number>>): BidderHttpClient => ({
  call: async (req) => {
    const imp = req.impIds[0]!;
    if (imp === 'i2') await new Promise((resolve) => setImmediate(resolve));
    return { ok: true, response: { status: 200, headers: {}, body: String(counts[imp] ?? 0) } };
  },
  close: async () => undefined,
});

const options = (http: BidderHttpClient, maxBids: number): BidderCallOptions => ({
  http,
  clock: { now: () => Date.now() },
  deadline: Date.now() + 10_000,
  signal: { aborted: false, addEventListener: () => undefined, removeEventListener: () => undefined },
  maxResponseBytes: 1 << 20,
  maxBids,
  currency: 'USD',
  convertCurrency: (amount) => amount,
  adjustment: 1,
  entryPoint: 'auction',
  globalPrivacyControl: false,
  debug: false,
});

describe('callBidder: the bid limit', () => {
  it("counts a bidder's calls together, keeps the bids it answered first and names the limit once per answer cut", async () => {
    const result = await callBidder({ bidder, request: twoImps }, options(httpAnswering({ i1: 3, i2: 3 }), 4));
    assert.deepEqual(result.bids.map((b) => b.bid.id), ['i1-0', 'i1-1', 'i1-2', 'i2-0']);
    assert.deepEqual(result.errors, [{ code: 3, message: 'many answered more bids than this server reads from one bidder in an auction (4); 2 dropped' }]);
    assert.equal(result.outcome, 'bid');
  });

  it('an answer after the limit is reached is dropped whole; at the limit nothing is', async () => {
    const full = await callBidder({ bidder, request: twoImps }, options(httpAnswering({ i1: 5, i2: 2 }), 5));
    assert.equal(full.bids.length, 5);
    assert.deepEqual(full.errors.map((e) => e.message), ['many answered more bids than this server reads from one bidder in an auction (5); 2 dropped']);
    const exact = await callBidder({ bidder, request: twoImps }, options(httpAnswering({ i1: 2, i2: 3 }), 5));
    assert.equal(exact.bids.length, 5);
    assert.deepEqual(exact.errors, []);
  });
});

/* What a caller reads of a bidder's failures: our words, never an exception's text. */

const INTERNAL = "Cannot read properties of undefined (reading 'seatbid') at /srv/openbid/dist/bidders/x.js:12";
const request = { id: 'r', imp: [{ id: 'imp-1', banner: { w: 300, h: 250 } }], site: {} } as unknown as BidRequest;

const run = async (adapter: Partial<Adapter>, http: BidderHttpClient) => {
  const bidder = {
    code: 'alpha',
    baseCode: 'alpha',
    endpoint: 'http://127.0.0.1:9/',
    module: {
      info: {},
      adapter: { makeRequests: () => ({ requests: [{ method: 'POST', uri: 'http://127.0.0.1:9/', body: '{}', headers: {} }], errors: [] }), makeBids: () => ({ errors: [] }), ...adapter },
    },
  } as unknown as Bidder;
  const opts = {
    http,
    clock: { now: () => 0 },
    deadline: 1000,
    signal: { aborted: false, addEventListener: () => undefined, removeEventListener: () => undefined },
    maxResponseBytes: 1024,
    maxBids: 1000,
    currency: 'USD',
    convertCurrency: (a: number) => a,
    adjustment: 1,
    entryPoint: 'auction',
    globalPrivacyControl: false,
    debug: false,
  } as unknown as BidderCallOptions;
  return (await callBidder({ bidder, request }, opts)).errors.map((e) => e.message);
};

const answering = (status: number, body: string): BidderHttpClient => ({ call: () => Promise.resolve({ ok: true, response: { status, headers: {}, body } }), close: () => Promise.resolve() });

describe('bidder failures as the caller reads them', () => {
  it("an adapter that throws building its request or reading the answer: a fixed message, not the exception's", async () => {
    const throwing = () => {
      throw new TypeError(INTERNAL);
    };
    assert.deepEqual(await run({ makeRequests: throwing }, answering(200, '{}')), ['the alpha adapter failed to build its request']);
    assert.deepEqual(await run({ makeBids: throwing }, answering(200, '{}')), ['the alpha adapter failed to read its answer']);
  });

  it('a network failure names its kind, never the host, address or port', async () => {
    const failing: BidderHttpClient = { call: () => Promise.resolve({ ok: false, failure: { kind: 'network', message: 'connection refused' } }), close: () => Promise.resolve() };
    assert.deepEqual(await run({}, failing), ['alpha could not be reached: connection refused']);
    const cases: [unknown, string][] = [
      [Object.assign(new Error('connect ECONNREFUSED 10.0.0.7:8080'), { code: 'ECONNREFUSED' }), 'connection refused'],
      [Object.assign(new Error('getaddrinfo ENOTFOUND bidder.internal'), { code: 'ENOTFOUND' }), 'host name not found'],
      [Object.assign(new Error('other side closed'), { code: 'UND_ERR_SOCKET' }), 'the connection closed before the answer ended'],
      [Object.assign(new Error('Response does not match the HTTP/1.1 protocol'), { code: 'HPE_INVALID_CONSTANT' }), 'the answer is not valid HTTP'],
      [Object.assign(new Error('self-signed certificate'), { code: 'DEPTH_ZERO_SELF_SIGNED_CERT' }), 'the TLS handshake failed'],
      [Object.assign(new Error('incorrect header check'), { code: 'Z_DATA_ERROR' }), 'the gzip answer does not inflate'],
      [new TypeError('Invalid URL: http://[bad'), 'network error'],
      ['a string', 'network error'],
    ];
    for (const [err, reason] of cases) assert.equal(networkFailureReason(err), reason);
  });
});
