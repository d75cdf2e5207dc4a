import assert from 'node:assert/strict';
import { createServer } from 'node:http';
import type { Server } from 'node:http';
import { after, before, describe, it } from 'node:test';
import { gunzipSync, gzipSync } from 'node:zlib';
import type { RequestData } from '../../bidders/adapter.js';
import { createUndiciBidderHttp } from './undici-bidder-http.js';
import type { CancelSignal } from '../../core/cancel-signal.js';
import { deadlineSignal } from '../deadline-signal.js';
import { closeServer, listenLocal, waitFor } from '../../../test/support/ports.js';
import { gzipBomb } from '../../../test/support/gzip-bomb.js';
import { prng } from '../../../test/support/prng.js';

/** A bidder on 127.0.0.1 answering by path; every request it received, body inflated, is kept. */
const LIMIT = 4096;
const received: { url: string; headers: Record<string, unknown>; body: string }[] = [];
/** Sizes past the 64 KB that the client compresses and inflates on the event loop: those go to zlib's thread pool. */
const LARGE_BODY = JSON.stringify({ pad: 'y'.repeat(100 * 1024) });
const LARGE_LIMIT = 256 * 1024;
/** Text gzip barely shrinks (random base64): its compressed bytes pass 64 KB, so it is inflated as it arrives. */
const INCOMPRESSIBLE = (() => {
  const next = prng(36);
  return JSON.stringify({ pad: Buffer.from(Array.from({ length: 120 * 1024 }, () => Math.floor(next() * 256))).toString('base64') });
})();
const INCOMPRESSIBLE_GZIP = gzipSync(INCOMPRESSIBLE);
/** 256 MiB of zeros in ~265 KB of gzip. */
const BOMB = gzipBomb(256);
let server: Server;
let base = '';
before(async () => {
  server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      const raw = Buffer.concat(chunks);
      received.push({ url: req.url ?? '', headers: req.headers, body: (req.headers['content-encoding'] === 'gzip' ? gunzipSync(raw) : raw).toString('utf8') });
      const path = (req.url ?? '').split('?')[0];
      if (path === '/ok') res.writeHead(200, { 'content-type': 'application/json', 'x-seen': 'yes' }).end('{"id":"é"}');
      else if (path === '/gzip') res.writeHead(200, { 'content-encoding': 'gzip' }).end(gzipSync('{"zipped":true}'));
      else if (path === '/gzip-bomb') res.writeHead(200, { 'content-encoding': 'gzip' }).end(gzipSync(Buffer.alloc(LIMIT * 4, 0x20)));
      else if (path === '/gzip-large') res.writeHead(200, { 'content-encoding': 'gzip' }).end(gzipSync(LARGE_BODY));
      else if (path === '/gzip-bomb-large') res.writeHead(200, { 'content-encoding': 'gzip' }).end(gzipSync(Buffer.alloc(LARGE_LIMIT * 4, 0x20)));
      else if (path === '/gzip-corrupt') res.writeHead(200, { 'content-encoding': 'gzip' }).end('not gzip at all');
      else if (path === '/gzip-corrupt-large') res.writeHead(200, { 'content-encoding': 'gzip' }).end(Buffer.from(INCOMPRESSIBLE));
      else if (path === '/gzip-incompressible') res.writeHead(200, { 'content-encoding': 'gzip' }).end(INCOMPRESSIBLE_GZIP);
      // The start of an answer whose end never comes: only what has arrived can be inflated.
      else if (path === '/gzip-bomb-unfinished') res.writeHead(200, { 'content-encoding': 'gzip' }).write(BOMB.subarray(0, 128 * 1024));
      else if (path === '/gzip-large-unfinished') res.writeHead(200, { 'content-encoding': 'gzip' }).write(INCOMPRESSIBLE_GZIP.subarray(0, 80 * 1024));
      else if (path === '/declared-big') res.writeHead(200, { 'content-length': String(LIMIT + 1) }).end(Buffer.alloc(LIMIT + 1, 0x20));
      else if (path === '/chunked-big') {
        res.writeHead(200);
        for (let i = 0; i < 4; i++) res.write(Buffer.alloc(LIMIT / 2, 0x20));
        res.end();
      } else if (path === '/chunks') {
        res.writeHead(200);
        res.write('{"a":');
        setTimeout(() => res.end('1}'), 5);
      } else if (path === '/no-bid') res.writeHead(204).end();
      else if (path === '/slow-body') {
        res.writeHead(200);
        res.write('{"partial":');
      } else if (path === '/never') return;
      else res.writeHead(404).end('nope');
    });
  });
  base = await listenLocal(server);
});
after(() => closeServer(server));

const call = (path: string, overrides: Partial<RequestData> = {}): RequestData => ({ method: 'POST', uri: `${base}${path}`, body: '{"id":"r"}', headers: { 'content-type': 'application/json' }, impIds: ['1'], ...overrides });
const opts = (signal: CancelSignal = new AbortController().signal) => ({ signal, maxResponseBytes: LIMIT });

describe('undici bidder HTTP client', () => {
  const http = createUndiciBidderHttp({ connectionsPerHost: 4 });
  after(() => http.close());
  /** More connections than the client has inflation slots (4), so that calls can wait for one. */
  const wide = createUndiciBidderHttp({ connectionsPerHost: 16 });
  after(() => wide.close());

  it('answers status, lower-case headers and the body as text, sending the method, path, query, headers and body', async () => {
    const r = await http.call(call('/ok?a=1&b=2'), opts());
    assert.ok(r.ok);
    assert.equal(r.response.status, 200);
    assert.equal(r.response.headers['x-seen'], 'yes');
    assert.equal(r.response.body, '{"id":"é"}');
    const seen = received.at(-1)!;
    assert.equal(seen.url, '/ok?a=1&b=2');
    assert.equal(seen.body, '{"id":"r"}');
    assert.equal(seen.headers['content-type'], 'application/json');
    assert.equal(seen.headers['accept-encoding'], 'gzip');
  });

  it('reads an answer that comes in several chunks, and any status as an answer', async () => {
    const r = await http.call(call('/chunks'), opts());
    assert.ok(r.ok);
    assert.equal(r.response.body, '{"a":1}');
    const none = await http.call(call('/no-bid'), opts());
    assert.ok(none.ok);
    assert.deepEqual([none.response.status, none.response.body], [204, '']);
    const missing = await http.call(call('/missing', { method: 'GET', body: undefined }), opts());
    assert.ok(missing.ok);
    assert.deepEqual([missing.response.status, missing.response.body], [404, 'nope']);
  });

  it('inflates a gzip answer, and sends a gzip body with its header when asked', async () => {
    const r = await http.call(call('/gzip', { headers: { 'Content-Encoding': 'identity' } }), { ...opts(), gzipBody: true });
    assert.ok(r.ok);
    assert.equal(r.response.body, '{"zipped":true}');
    const seen = received.at(-1)!;
    assert.equal(seen.headers['content-encoding'], 'gzip');
    assert.equal(seen.body, '{"id":"r"}');
  });

  it('compresses a body past 64 KB as below it (in the thread pool)', async () => {
    const r = await http.call(call('/ok', { body: LARGE_BODY }), { ...opts(), gzipBody: true });
    assert.ok(r.ok);
    const seen = received.at(-1)!;
    assert.equal(seen.headers['content-encoding'], 'gzip');
    assert.equal(seen.body, LARGE_BODY);
  });

  it('inflates a gzip answer past 64 KB as below it (in the thread pool), and refuses one past the limit', async () => {
    const large = { ...opts(), maxResponseBytes: LARGE_LIMIT };
    const r = await http.call(call('/gzip-large'), large);
    assert.ok(r.ok);
    assert.equal(r.response.body, LARGE_BODY);
    assert.deepEqual(await http.call(call('/gzip-bomb-large'), large), { ok: false, failure: { kind: 'too-large', limitBytes: LARGE_LIMIT } });
  });

  it('inflates a gzip answer whose compressed bytes pass 64 KB as it arrives', async () => {
    assert.ok(INCOMPRESSIBLE_GZIP.length > 64 * 1024, `${INCOMPRESSIBLE_GZIP.length} bytes of gzip`);
    const r = await http.call(call('/gzip-incompressible'), { ...opts(), maxResponseBytes: LARGE_LIMIT });
    assert.ok(r.ok);
    assert.equal(r.response.body, INCOMPRESSIBLE);
  });

  it('refuses a gzip bomb once its output passes the limit, without waiting for the rest of its body', async () => {
    // The body never ends: a client that read it all before inflating would time out instead.
    const deadline = deadlineSignal(10_000);
    try {
      assert.deepEqual(await http.call(call('/gzip-bomb-unfinished'), { signal: deadline.signal, maxResponseBytes: LARGE_LIMIT }), { ok: false, failure: { kind: 'too-large', limitBytes: LARGE_LIMIT } });
      assert.equal(deadline.signal.aborted, false);
    } finally {
      deadline.clear();
    }
  });

  it('inflates more large answers than it has inflation slots, and calls given up while waiting or inflating free theirs', async () => {
    const large = { maxResponseBytes: LARGE_LIMIT };
    // Eight calls that take a slot or wait for one, then reach their deadline with their answers unfinished.
    const cut = await Promise.all(Array.from({ length: 8 }, () => wide.call(call('/gzip-large-unfinished'), { ...large, signal: AbortSignal.timeout(300) })));
    assert.deepEqual(cut, Array.from({ length: 8 }, () => ({ ok: false, failure: { kind: 'timeout' } })));
    // Had a slot been kept, some of these would wait until their deadline.
    const whole = await Promise.all(Array.from({ length: 12 }, () => wide.call(call('/gzip-incompressible'), { ...large, signal: AbortSignal.timeout(20_000) })));
    assert.deepEqual(
      whole.map((r) => r.ok && r.response.body === INCOMPRESSIBLE),
      Array.from({ length: 12 }, () => true),
    );
  });

  it('takes no inflation slot from others while a large answer waits for its next bytes', async () => {
    const large = { maxResponseBytes: LARGE_LIMIT };
    const slow = new AbortController();
    const before = received.length;
    // More unfinished large answers than there are slots, each inflated as far as it came.
    const waiting = Array.from({ length: 6 }, () => wide.call(call('/gzip-large-unfinished'), { ...large, signal: slow.signal }));
    try {
      await waitFor('the slow calls to reach the bidder', () => Promise.resolve(received.length - before >= 6));
      const r = await wide.call(call('/gzip-incompressible'), { ...large, signal: AbortSignal.timeout(20_000) });
      assert.ok(r.ok && r.response.body === INCOMPRESSIBLE, JSON.stringify(r).slice(0, 200));
    } finally {
      slow.abort();
    }
    assert.deepEqual(await Promise.all(waiting), Array.from({ length: 6 }, () => ({ ok: false, failure: { kind: 'timeout' } })));
  });

  it('reports an answer that says gzip and is not as a network failure, short or long', async () => {
    for (const path of ['/gzip-corrupt', '/gzip-corrupt-large']) {
      const r = await http.call(call(path), { ...opts(), maxResponseBytes: LARGE_LIMIT });
      assert.equal(r.ok, false, path);
      assert.equal(!r.ok && r.failure.kind, 'network', path);
    }
  });

  it('refuses answers over the limit: declared, streamed, or once inflated', async () => {
    for (const path of ['/declared-big', '/chunked-big', '/gzip-bomb']) {
      assert.deepEqual(await http.call(call(path), opts()), { ok: false, failure: { kind: 'too-large', limitBytes: LIMIT } }, path);
    }
  });

  it('reports a timeout when the signal aborts before the headers, during the body, or before the call', async () => {
    for (const path of ['/never', '/slow-body']) {
      assert.deepEqual(await http.call(call(path), opts(AbortSignal.timeout(50))), { ok: false, failure: { kind: 'timeout' } }, path);
    }
    assert.deepEqual(await http.call(call('/ok'), opts(AbortSignal.abort())), { ok: false, failure: { kind: 'timeout' } });
  });

  it("gives up at the auction's own deadline, while a call that answered in time keeps its answer", async () => {
    // Long enough for the local answer to come on a loaded machine (50 ms was not, at times).
    const deadline = deadlineSignal(500);
    try {
      const [cut, answered] = await Promise.all([http.call(call('/never'), opts(deadline.signal)), http.call(call('/ok'), opts(deadline.signal))]);
      assert.deepEqual(cut, { ok: false, failure: { kind: 'timeout' } });
      assert.equal(answered.ok && answered.response.status, 200);
      assert.equal(deadline.signal.aborted, true);
    } finally {
      deadline.clear();
    }
  });

  it('reports an unreachable bidder and a URI it cannot call as network failures', async () => {
    const closed = createServer();
    await new Promise<void>((resolve) => closed.listen(0, '127.0.0.1', resolve));
    const addr = closed.address();
    await new Promise<void>((resolve) => closed.close(() => resolve()));
    const r = await http.call(call('/', { uri: `http://127.0.0.1:${typeof addr === 'object' && addr !== null ? addr.port : 0}/` }), opts());
    assert.equal(r.ok, false);
    assert.ok(!r.ok && r.failure.kind === 'network' && r.failure.message === 'connection refused', JSON.stringify(r));
    const bad = await http.call(call('/', { uri: 'ftp://bidder.example/' }), opts());
    assert.ok(!bad.ok && bad.failure.kind === 'network' && !bad.failure.message.includes('bidder.example'), JSON.stringify(bad));
  });
});
