import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import type { Adapter } from '../bidders/adapter.js';
import type { Bidder } from '../bidders/registry.js';
import type { BidRequest } from '../openrtb/types.js';
import { callBidder } from './bidder-call.js';
import type { BidderCallOptions } from './bidder-call.js';
import type { BidderHttpClient } from './bidder-http.js';
import { networkFailureReason } from './network-failure.js';

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
