import assert from 'node:assert/strict';
import { request as httpRequest } from 'node:http';
import type { IncomingHttpHeaders } from 'node:http';
import { after, before, describe, it } from 'node:test';
import { gunzipSync } from 'node:zlib';
import { Agent, request } from 'undici';
import type { LanesSetting } from '../../src/http/server.js';
import { encodeUidsCookie } from '../../src/usersync/uids-cookie.js';
import { buildTestApp } from '../support/app.js';
import type { TestApp } from '../support/app.js';
import { startMockBidder } from '../support/mock-bidder.js';
import type { MockBidder } from '../support/mock-bidder.js';

/*
 * `server.compression`: the answers of /openrtb2/auction, /openrtb2/amp, /cookie_sync and
 * /getuids, gzipped for a client that accepts gzip, on every path that serves them (the socket
 * lane, the node lane, Fastify: each `server.lanes` value, over a real socket), the same JSON as
 * without compression; never for a client that does not accept gzip (no header, q=0) nor for an
 * answer under `min_bytes`.
 */

const MIN_BYTES = 300;
const GZIP = { 'accept-encoding': 'gzip, deflate, br' };

/** Twenty bids of one imp, each with its own creative: an auction answer of ~10 KB. */
const BIDS = {
  id: 'resp',
  seatbid: [
    {
      bid: Array.from({ length: 20 }, (_, i) => ({ id: `b${i}`, impid: 'imp-1', price: 0.5 + i / 100, adm: `<div class="ad-${i}">creative ${i} ${'é'.repeat(i)}</div>`, crid: `cr-${i}`, w: 300, h: 250 })),
    },
  ],
};

const auctionBody = JSON.stringify({ id: 'req-1', site: { page: 'https://pub.example/a' }, imp: [{ id: 'imp-1', banner: { format: [{ w: 300, h: 250 }] }, ext: { prebid: { bidder: { alpha: {} } } } }], tmax: 2000 });

/** Sixty bidders with a sync each, and a consent string written into every sync URL twice. */
const SYNCERS = Object.fromEntries(
  Array.from({ length: 60 }, (_, i) => [
    `sync${i}`,
    { adapter: 'generic', endpoint: 'http://127.0.0.1:9/unused', usersync: { redirect: { url: `https://sync${i}.example/s?c={{.GDPRConsent}}&r={{.RedirectURL}}`, user_macro: '$UID' } } },
  ]),
);
const CONSENT = Buffer.from(Array.from({ length: 1500 }, (_, i) => (i * 7919) % 251)).toString('base64url');
const cookieSyncBody = JSON.stringify({ bidders: Object.keys(SYNCERS), gdpr: 0, gdpr_consent: CONSENT, limit: 0 });

/** What a client gets: status, headers, the body's bytes as sent. */
interface Got {
  readonly status: number;
  readonly headers: IncomingHttpHeaders;
  readonly raw: Buffer;
}

/** A keep-alive request (the socket lane's, with `server.lanes: all`). */
const send = async (url: string, opts: { method?: 'GET' | 'POST'; body?: string; headers?: Record<string, string> }, dispatcher: Agent): Promise<Got> => {
  const res = await request(url, { method: opts.method ?? 'GET', ...(opts.body !== undefined ? { body: opts.body } : {}), headers: opts.headers ?? {}, dispatcher });
  return { status: res.statusCode, headers: res.headers, raw: Buffer.from(await res.body.arrayBuffer()) };
};

/** A request with `Connection: close`, which the socket lane leaves to node:http (the node lane's, with lanes on). */
const sendClosing = (url: string, opts: { method?: 'GET' | 'POST'; body?: string; headers?: Record<string, string> }): Promise<Got> =>
  new Promise((resolve, reject) => {
    const req = httpRequest(url, { method: opts.method ?? 'GET', agent: false, headers: { connection: 'close', ...opts.headers } }, (res) => {
      const chunks: Buffer[] = [];
      res.on('data', (c: Buffer) => chunks.push(c));
      res.on('end', () => resolve({ status: res.statusCode ?? 0, headers: res.headers, raw: Buffer.concat(chunks) }));
      res.on('error', reject);
    });
    req.on('error', reject);
    req.end(opts.body);
  });

/**
 * The answer's JSON, inflated when it says gzip, without what differs between two answers to the
 * same request: timings, cache ids, the order `/cookie_sync` shuffles its bidders into.
 */
const jsonOf = (got: Got): unknown => {
  const text = (got.headers['content-encoding'] === 'gzip' ? gunzipSync(got.raw) : got.raw).toString('utf8');
  return JSON.parse(text, (key, value: unknown) => {
    if (key === 'responsetimemillis' || key.startsWith('hb_cache_id')) return undefined;
    if (key === 'bidder_status') return (value as { bidder: string }[]).sort((a, b) => a.bidder.localeCompare(b.bidder));
    return value;
  });
};

const assertGzipped = (got: Got, label: string): void => {
  assert.equal(got.status, 200, label);
  assert.equal(got.headers['content-encoding'], 'gzip', label);
  assert.equal(got.headers.vary, 'Origin, Accept-Encoding', label);
  assert.equal(Number(got.headers['content-length']), got.raw.length, label);
  assert.ok(gunzipSync(got.raw).length >= MIN_BYTES, label);
};

const assertPlain = (got: Got, label: string): void => {
  assert.equal(got.status, 200, label);
  assert.equal(got.headers['content-encoding'], undefined, label);
  assert.equal(got.headers.vary, 'Origin, Accept-Encoding', label);
  JSON.parse(got.raw.toString('utf8'));
};

let bidder: MockBidder;
before(async () => {
  bidder = await startMockBidder({ body: BIDS });
});
after(() => bidder.close());

/** An app with these `server.compression` settings; `undefined`: the defaults (no key at all). */
const appFor = (lanes: LanesSetting, compression: Record<string, unknown> | undefined): Promise<TestApp> =>
  buildTestApp({
    server: { lanes, ...(compression !== undefined ? { compression } : {}) },
    adapters: {
      alpha: { adapter: 'generic', endpoint: bidder.url },
      beta: { adapter: 'generic', endpoint: bidder.url },
      ...SYNCERS,
    },
    stored_requests: { filesystem: { directory: 'test/fixtures/amp-stored/requests' } },
  });

for (const lanes of ['all', 'node', 'off'] as const) {
  describe(`compressed answers, server.lanes: ${lanes}`, () => {
    let app: TestApp;
    let base: string;
    const agent = new Agent({ connections: 1 });
    before(async () => {
      app = await appFor(lanes, { min_bytes: MIN_BYTES });
      base = await app.server.listen({ host: '127.0.0.1', port: 0 });
    });
    after(async () => {
      await agent.close();
      await app.close();
    });

    const auction = (headers: Record<string, string>) => send(`${base}/openrtb2/auction`, { method: 'POST', body: auctionBody, headers: { 'content-type': 'text/plain', ...headers } }, agent);

    it('an auction answer is gzipped for a client that accepts gzip, and inflates to the JSON sent without', async () => {
      const plain = await auction({});
      const zipped = await auction(GZIP);
      assertPlain(plain, 'no Accept-Encoding');
      assertGzipped(zipped, 'gzip accepted');
      assert.ok(zipped.raw.length < plain.raw.length / 2, `${zipped.raw.length} of ${plain.raw.length} bytes`);
      assert.deepEqual(jsonOf(zipped), jsonOf(plain));
      assert.equal((jsonOf(zipped) as { seatbid: { bid: unknown[] }[] }).seatbid[0]?.bid.length, 20);
      // The same over a connection node:http holds (the node lane, or Fastify with lanes off).
      const closing = await sendClosing(`${base}/openrtb2/auction`, { method: 'POST', body: auctionBody, headers: { 'content-type': 'text/plain', ...GZIP } });
      assertGzipped(closing, 'Connection: close');
      assert.deepEqual(jsonOf(closing), jsonOf(plain));
    });

    it('gzip refused (q=0, or only by a wildcard q=0), or not named: the answer goes as it is', async () => {
      for (const value of ['gzip;q=0', 'br, deflate', 'identity', '*;q=0', 'gzip;q=0, *', 'x-gzip; q=0.000']) {
        assertPlain(await auction({ 'accept-encoding': value }), value);
      }
      for (const value of ['*', 'GZIP', 'x-gzip', 'br;q=1.0, gzip;q=0.001', 'deflate;q=0, *;q=0.5']) {
        assertGzipped(await auction({ 'accept-encoding': value }), value);
      }
    });

    it("AMP's answer is gzipped too, with AMP's CORS headers", async () => {
      const url = `${base}/openrtb2/amp?tag_id=banner-1&__amp_source_origin=${encodeURIComponent('https://pub.example')}`;
      const plain = await send(url, { headers: { origin: 'https://cdn.ampproject.org' } }, agent);
      const zipped = await send(url, { headers: { origin: 'https://cdn.ampproject.org', ...GZIP } }, agent);
      assertPlain(plain, 'AMP');
      assertGzipped(zipped, 'AMP gzip');
      assert.equal(zipped.headers['amp-access-control-allow-source-origin'], 'https://pub.example');
      assert.equal(zipped.headers['access-control-allow-origin'], 'https://cdn.ampproject.org');
      assert.deepEqual(jsonOf(zipped), jsonOf(plain));
      const closing = await sendClosing(url, { headers: { origin: 'https://cdn.ampproject.org', ...GZIP } });
      assertGzipped(closing, 'AMP Connection: close');
      assert.equal(closing.headers['amp-access-control-allow-source-origin'], 'https://pub.example');
    });

    it('/cookie_sync and /getuids answers are gzipped; an answer under min_bytes is not', async () => {
      const post = (headers: Record<string, string>) => send(`${base}/cookie_sync`, { method: 'POST', body: cookieSyncBody, headers: { 'content-type': 'text/plain', ...headers } }, agent);
      const plain = await post({});
      const zipped = await post(GZIP);
      assertPlain(plain, 'cookie_sync');
      assertGzipped(zipped, 'cookie_sync gzip');
      assert.deepEqual(jsonOf(zipped), jsonOf(plain));
      assert.equal((jsonOf(zipped) as { bidder_status: unknown[] }).bidder_status.length, 60);
      // Every sync URL carries the consent: a large answer that compresses well.
      assert.ok(plain.raw.length > 200_000 && zipped.raw.length * 20 < plain.raw.length, `${zipped.raw.length} of ${plain.raw.length} bytes`);

      const ids = Object.fromEntries(Array.from({ length: 40 }, (_, i): [string, { uid: string; expiresAt: number }] => [`family${i}`, { uid: `id-${i}`, expiresAt: Date.now() + 60_000 }]));
      const cookie = `uids=${encodeUidsCookie({ uids: new Map(Object.entries(ids)), optOut: false })}`;
      const getuids = await send(`${base}/getuids`, { headers: { cookie, ...GZIP } }, agent);
      assertGzipped(getuids, 'getuids');
      assert.equal(Object.keys((jsonOf(getuids) as { buyeruids: object }).buyeruids).length, 40);
      const small = await send(`${base}/getuids`, { headers: GZIP }, agent);
      assertPlain(small, 'an empty /getuids');
      assert.equal(small.raw.toString(), '{}\n');
    });
  });
}

describe('server.compression settings', () => {
  const agent = new Agent({ connections: 1 });
  after(() => agent.close());
  const few = JSON.stringify({ bidders: ['sync1', 'sync2', 'sync3', 'sync4'], gdpr: 0, limit: 0 });
  const sync = (base: string, body: string) => send(`${base}/cookie_sync`, { method: 'POST', body, headers: { 'content-type': 'text/plain', ...GZIP } }, agent);

  it('by default a large answer is gzipped, one under 1400 bytes is not', async () => {
    const app = await appFor('all', undefined);
    try {
      const base = await app.server.listen({ host: '127.0.0.1', port: 0 });
      assertGzipped(await sync(base, cookieSyncBody), 'a large answer');
      const small = await sync(base, few);
      assertPlain(small, 'four syncs');
      assert.ok(small.raw.length > MIN_BYTES && small.raw.length < 1400, `${small.raw.length} bytes`);
    } finally {
      await app.close();
    }
  });

  it('enable_gzip: false sends every answer as it is', async () => {
    const app = await appFor('all', { enable_gzip: false });
    try {
      const base = await app.server.listen({ host: '127.0.0.1', port: 0 });
      assertPlain(await sync(base, cookieSyncBody), 'compression off');
      const auction = await send(`${base}/openrtb2/auction`, { method: 'POST', body: auctionBody, headers: { 'content-type': 'text/plain', ...GZIP } }, agent);
      assertPlain(auction, 'an auction, compression off');
    } finally {
      await app.close();
    }
  });
});
