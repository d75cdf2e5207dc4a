// Property-based fuzzing of every endpoint over real sockets: generated hostile bodies, query
// strings and headers must never get a 5xx, crash the server or lose the connection without an
// answer. Fixed seed and run count, so CI runs the same cases every time; a failure prints the
// smallest request fast-check shrank it to.
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import fc from 'fast-check';
import type { TestApp } from '../support/app.js';
import { buildTestApp } from '../support/app.js';
import type { MockBidder } from '../support/mock-bidder.js';
import { startMockBidder } from '../support/mock-bidder.js';
import { openRaw } from '../support/raw-http.js';
import type { RawAnswer } from '../support/raw-http.js';

const SEED = 20261124;
const RUNS_PER_ENDPOINT = 60;
const ANSWER_TIMEOUT_MS = 5000;

interface RawRequest {
  readonly method: 'GET' | 'POST';
  readonly target: string;
  readonly headers: readonly (readonly [string, Buffer])[];
  readonly body?: Buffer;
}

/**
 * Sends one request on a fresh keep-alive connection and resolves with its answer; rejects when
 * the server closes the connection without one or none comes within ANSWER_TIMEOUT_MS.
 */
const send = async (port: number, req: RawRequest, lineEnds: readonly string[] = [], timeoutMs = ANSWER_TIMEOUT_MS): Promise<RawAnswer> => {
  const conn = await openRaw(port);
  try {
    // The end of each line but the head's last, empty one: CRLF unless `lineEnds` says otherwise.
    let line = 0;
    const eol = (): Buffer => Buffer.from(lineEnds[line++] ?? '\r\n', 'latin1');
    const parts: Buffer[] = [Buffer.from(`${req.method} ${req.target} HTTP/1.1`, 'latin1'), eol(), Buffer.from('host: 127.0.0.1', 'latin1'), eol(), Buffer.from('connection: keep-alive', 'latin1'), eol()];
    for (const [name, value] of req.headers) parts.push(Buffer.from(`${name}: `, 'latin1'), value, eol());
    if (req.body !== undefined) parts.push(Buffer.from(`content-length: ${req.body.length}`, 'latin1'), eol());
    parts.push(Buffer.from('\r\n', 'latin1'));
    if (req.body !== undefined) parts.push(req.body);
    conn.write(Buffer.concat(parts));
    const [answer] = await conn.answers(1, timeoutMs);
    return answer!;
  } finally {
    conn.socket.destroy();
  }
};

/** Percent-encodes every byte of a string's UTF-8 form (lone surrogates become U+FFFD, as browsers send them). */
const encodeBytes = (s: string): string => [...Buffer.from(s, 'utf8')].map((b) => (/[A-Za-z0-9_.~-]/.test(String.fromCharCode(b)) ? String.fromCharCode(b) : `%${b.toString(16).toUpperCase().padStart(2, '0')}`)).join('');

const nasty = fc.oneof(
  fc.string({ unit: 'binary', maxLength: 40 }),
  fc.constantFrom('', ' ', '%', '%zz', '%E0%A4%A', '%00', '\u0000', '__proto__', 'constructor', '1e999999', '-0', '9'.repeat(400), '[]', '{}', 'null', 'true', '\ud800', '../../etc/passwd'),
);

/** Removes what node:http refuses in a request target before any route sees it: spaces and control characters. */
const dropSpacesAndControls = (s: string): string => [...s].filter((c) => c.charCodeAt(0) > 0x20 && c.charCodeAt(0) !== 0x7f).join('');

const queryString = (names: readonly string[]) =>
  fc
    .array(fc.tuple(fc.oneof(fc.constantFrom(...names), nasty), fc.oneof(nasty, fc.string({ maxLength: 20 }))), { maxLength: 8 })
    .chain((pairs) =>
      fc.oneof(
        fc.constant(pairs.map(([k, v]) => `${encodeBytes(k)}=${encodeBytes(v)}`).join('&')),
        // Raw, unencoded bytes that a careless client may put in a URL (still no spaces or controls, which node:http rejects at the socket).
        fc.constant(pairs.map(([k, v]) => dropSpacesAndControls(`${k}=${v}`)).join('&')),
      ),
    );

/** JSON nested `depth` levels, as arrays or objects. */
const deepJsonText = (min: number, max: number) => fc.tuple(fc.integer({ min, max }), fc.boolean()).map(([depth, arrays]) => (arrays ? '['.repeat(depth) + ']'.repeat(depth) : '{"a":'.repeat(depth) + '1' + '}'.repeat(depth)));
const deepJson = deepJsonText(90, 20_000);

const hostileValue = fc.oneof(
  { weight: 3, arbitrary: fc.jsonValue({ maxDepth: 4 }) },
  // Parsed values stay shallow enough for fast-check to print and shrink them; deeper ones go as text below.
  { weight: 1, arbitrary: deepJsonText(90, 400).map((text) => JSON.parse(text) as unknown) },
  { weight: 1, arbitrary: nasty },
);

/** A body that is JSON text of a given shape with hostile parts, or not JSON at all. */
const body = (shapes: fc.Arbitrary<unknown>) =>
  fc.oneof(
    { weight: 4, arbitrary: shapes.map((v) => Buffer.from(JSON.stringify(v) ?? 'null', 'utf8')) },
    { weight: 1, arbitrary: deepJson.map((t) => Buffer.from(t)) },
    { weight: 1, arbitrary: shapes.chain((v) => fc.nat().map((n) => Buffer.from((JSON.stringify(v) ?? '').slice(0, n % 200)))) },
    { weight: 1, arbitrary: fc.uint8Array({ maxLength: 300 }).map((a) => Buffer.from(a)) },
    { weight: 1, arbitrary: fc.constantFrom('{"puts":[{"type":"json","value":1,"__proto__":{"x":1}}]}', '{"a":1,"a":2}', '{"puts":"\\ud800"}', '\ufeff{}', '{"puts":[{"type":"xml","value":"\\ud83d"}]}').map((t) => Buffer.from(t)) },
  );

const headerValue = fc.oneof(
  fc.string({ unit: fc.integer({ min: 0x20, max: 0x7e }).map((c) => String.fromCharCode(c)), maxLength: 60 }).map((s) => Buffer.from(s, 'latin1')),
  fc.uint8Array({ maxLength: 40 }).map((a) => Buffer.from(a.filter((b) => b >= 0x20 && b !== 0x7f))),
);
const headers = fc.array(fc.tuple(fc.constantFrom('origin', 'content-type', 'user-agent', 'x-forwarded-for', 'sec-gpc', 'x-svc-api-key', 'cookie', 'accept-encoding', 'x-whatever'), headerValue), { maxLength: 5 });

const put = fc.record({ type: fc.oneof(fc.constantFrom('xml', 'json'), hostileValue), value: hostileValue, ttlseconds: fc.oneof(fc.integer(), hostileValue), key: fc.option(hostileValue) }, { requiredKeys: [] });
const trackPut = fc.record({ type: fc.oneof(fc.constant('xml'), hostileValue), value: fc.oneof(fc.constant('<VAST version="3.0"><Ad><InLine></InLine></Ad></VAST>'), hostileValue), bidid: hostileValue, bidder: hostileValue, aid: hostileValue, timestamp: hostileValue, ttlseconds: hostileValue }, { requiredKeys: [] });
const openRtb = fc.record(
  {
    id: hostileValue,
    site: fc.oneof(fc.constant({ page: 'https://p.example/', publisher: { id: 'pub' } }), hostileValue),
    imp: fc.oneof(fc.constant([{ id: '1', banner: { format: [{ w: 300, h: 250 }] }, ext: { prebid: { bidder: { alpha: {} } } } }]), fc.array(fc.record({ id: hostileValue, banner: hostileValue, video: hostileValue, ext: fc.oneof(fc.constant({ prebid: { bidder: { alpha: {} } } }), hostileValue) }, { requiredKeys: [] }), { maxLength: 3 })),
    tmax: hostileValue,
    cur: hostileValue,
    regs: hostileValue,
    user: hostileValue,
    device: hostileValue,
    ext: fc.oneof(fc.constant({ prebid: { targeting: {}, cache: { bids: {} } } }), hostileValue),
  },
  { requiredKeys: ['site', 'imp'] },
);

/** A `uids` cookie: base64url of hostile JSON, or hostile bytes. */
const withUidsCookie = fc
  .tuple(headers, fc.oneof(hostileValue.map((v) => Buffer.from(JSON.stringify({ tempUIDs: { adnxs: { uid: v, expires: v } }, optout: v }) ?? 'null').toString('base64url')), headerValue.map((b) => b.toString('latin1'))))
  .map(([h, uids]) => [...h, ['cookie', Buffer.from(`uids=${uids}`, 'latin1')] as const]);
const cookieSync = fc.record(
  { bidders: fc.oneof(fc.constant(['appnexus', 'alpha']), hostileValue), gdpr: hostileValue, gdpr_consent: hostileValue, us_privacy: hostileValue, gpp: hostileValue, gpp_sid: hostileValue, limit: hostileValue, coopSync: hostileValue, filterSettings: hostileValue, account: hostileValue, debug: hostileValue },
  { requiredKeys: [] },
);

interface Endpoint {
  readonly name: string;
  readonly request: fc.Arbitrary<RawRequest>;
}

const endpoints: readonly Endpoint[] = [
  { name: 'POST /cache', request: fc.record({ method: fc.constant('POST' as const), target: fc.constant('/cache'), headers, body: body(fc.record({ puts: fc.oneof(fc.array(put, { maxLength: 12 }), hostileValue) }, { requiredKeys: [] })) }) },
  { name: 'GET /cache', request: fc.record({ method: fc.constant('GET' as const), target: queryString(['uuid', 'ch']).map((q) => `/cache?${q}`), headers }) },
  { name: 'POST /vtrack', request: fc.record({ method: fc.constant('POST' as const), target: queryString(['a']).map((q) => `/vtrack?a=acc&${q}`), headers, body: body(fc.record({ puts: fc.oneof(fc.array(trackPut, { maxLength: 4 }), hostileValue) }, { requiredKeys: [] })) }) },
  { name: 'GET /event', request: fc.record({ method: fc.constant('GET' as const), target: queryString(['t', 'b', 'a', 'bidder', 'f', 'ts', 'x', 'int', 'aid']).map((q) => `/event?t=win&b=b&a=acc&bidder=x&${q}`), headers }) },
  { name: 'POST /storage', request: fc.record({ method: fc.constant('POST' as const), target: fc.constant('/storage'), headers: headers.map((h) => [...h, ['x-svc-api-key', Buffer.from('fuzz-key')] as const]), body: body(fc.record({ key: hostileValue, value: hostileValue, type: fc.oneof(fc.constantFrom('json', 'xml', 'text'), hostileValue), application: fc.oneof(fc.constant('fuzzapp'), hostileValue), ttlseconds: hostileValue }, { requiredKeys: [] })) }) },
  { name: 'GET /storage', request: fc.record({ method: fc.constant('GET' as const), target: queryString(['application', 'key', 'a', 'k']).map((q) => `/storage?${q}`), headers: headers.map((h) => [...h, ['x-svc-api-key', Buffer.from('fuzz-key')] as const]) }) },
  { name: 'POST /openrtb2/auction', request: fc.record({ method: fc.constant('POST' as const), target: fc.constant('/openrtb2/auction'), headers: withUidsCookie, body: body(openRtb) }) },
  { name: 'POST /cookie_sync', request: fc.record({ method: fc.constant('POST' as const), target: fc.constant('/cookie_sync'), headers: withUidsCookie, body: body(cookieSync) }) },
  { name: 'GET /setuid', request: fc.record({ method: fc.constant('GET' as const), target: queryString(['bidder', 'uid', 'gdpr', 'gdpr_consent', 'gpp', 'gpp_sid', 'f', 'account']).map((q) => `/setuid?bidder=appnexus&${q}`), headers: withUidsCookie }) },
  { name: 'GET /getuids', request: fc.record({ method: fc.constant('GET' as const), target: fc.constant('/getuids'), headers: withUidsCookie }) },
  { name: 'POST /optout', request: fc.record({ method: fc.constant('POST' as const), target: queryString(['optout', 'g-recaptcha-response']).map((q) => `/optout?${q}`), headers: withUidsCookie, body: body(hostileValue) }) },
  {
    name: 'GET /openrtb2/amp',
    request: fc.record({
      method: fc.constant('GET' as const),
      target: queryString(['tag_id', 'w', 'h', 'ow', 'oh', 'ms', 'curl', 'slot', 'timeout', 'targeting', 'gdpr_consent', 'consent_string', 'consent_type', 'gdpr_applies', 'addtl_consent', 'account', 'debug', '__amp_source_origin']).chain((q) =>
        fc.oneof(fc.constant(`/openrtb2/amp?tag_id=banner-1&${q}`), deepJson.map((t) => `/openrtb2/amp?tag_id=banner-1&targeting=${encodeURIComponent(t.slice(0, 6000))}&${q}`)),
      ),
      headers,
    }),
  },
];

for (const lanes of ['all', 'off'] as const) {
  describe(`hostile requests to every endpoint (server.lanes: ${lanes})`, () => {
    let app: TestApp;
    let bidder: MockBidder;
    let port: number;

    before(async () => {
      bidder = await startMockBidder({ body: { id: 'r', seatbid: [{ bid: [{ id: 'b', impid: '1', price: 1, adm: '<div/>', crid: 'c', w: 300, h: 250 }] }] } });
      app = await buildTestApp({
        server: { lanes },
        api: { 'api-key': 'fuzz-key' },
        storage: { memory: { fuzzapp: {} } },
        adapters: { alpha: { adapter: 'generic', endpoint: bidder.url } },
        stored_requests: { filesystem: { directory: 'test/fixtures/amp-stored/requests' } },
        auction: { default_timeout_ms: 300 },
      });
      port = Number(new URL(await app.server.listen({ host: '127.0.0.1', port: 0 })).port);
    });
    after(async () => {
      await app.close();
      await bidder.close();
    });

    for (const endpoint of endpoints) {
      it(`${endpoint.name}: never a 5xx, never a connection closed without an answer`, async () => {
        await fc.assert(
          fc.asyncProperty(endpoint.request, async (req) => {
            const { status, bytes } = await send(port, req);
            assert.ok(status >= 200 && status < 500, `answered ${status}: ${bytes.toString('latin1', 0, 300)}`);
          }),
          { seed: SEED, numRuns: RUNS_PER_ENDPOINT, endOnFailure: true },
        );
      });
    }

    // node:http (llhttp) refuses a bare LF or CR at once; before, the socket lane waited for a
    // CRLF CRLF that never came, and the answer was a 408 after headers_timeout_ms (60 s here).
    it('a head with bare LF, bare CR or mixed line ends: 400 at once (within 1 s), whatever the endpoint', async () => {
      const lineEnds = fc.array(fc.constantFrom('\r\n', '\n', '\r'), { minLength: 1, maxLength: 12 }).filter((ends) => ends.some((e) => e !== '\r\n'));
      await fc.assert(
        fc.asyncProperty(fc.oneof(...endpoints.map((e) => e.request)), lineEnds, async (req, ends) => {
          // Only the ends of lines the head has: at least one of them not CRLF.
          const lines = 3 + req.headers.length + (req.body === undefined ? 0 : 1);
          fc.pre(ends.slice(0, lines).some((e) => e !== '\r\n'));
          const { status, bytes } = await send(port, req, ends, 1000);
          assert.equal(status, 400, `answered ${status}: ${bytes.toString('latin1', 0, 300)}`);
        }),
        { seed: SEED, numRuns: RUNS_PER_ENDPOINT, endOnFailure: true },
      );
    });

    it('is still serving after all of it', async () => {
      const { status } = await send(port, { method: 'GET', target: '/status', headers: [] });
      assert.equal(status, 204);
    });
  });
}
