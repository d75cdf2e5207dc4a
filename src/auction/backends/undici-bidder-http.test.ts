import assert from 'node:assert/strict';
import { createServer } from 'node:http';
import type { Server } from 'node:http';
import { after, before, describe, it } from 'node:test';
import { gunzipSync, gzipSync } from 'node:zlib';
import type { RequestData } from '../../bidders/adapter.js';
import { createUndiciBidderHttp } from './undici-bidder-http.js';
import type { CancelSignal } from '../../core/cancel-signal.js';
import { deadlineSignal } from '../deadline-signal.js';
import { closeServer, listenLocal } from '../../../test/support/ports.js';

/** A bidder on 127.0.0.1 answering by path; every request it received, body inflated, is kept. */
const LIMIT = 4096;
const received: { url: string; headers: Record<string, unknown>; body: string }[] = [];
/** Sizes past the 64 KB that the client compresses and inflates on the event loop: those go to zlib's thread pool. */
const LARGE_BODY = JSON.stringify({ pad: 'y'.repeat(100 * 1024) });
const LARGE_LIMIT = 256 * 1024;
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

  it('reports an answer that says gzip and is not as a network failure', async () => {
    const r = await http.call(call('/gzip-corrupt'), opts());
    assert.equal(r.ok, false);
    assert.equal(!r.ok && r.failure.kind, 'network');
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
    const deadline = deadlineSignal(50);
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
    assert.ok(!r.ok && r.failure.kind === 'network' && r.failure.message.startsWith('ECONNREFUSED'), JSON.stringify(r));
    const bad = await http.call(call('/', { uri: 'ftp://bidder.example/' }), opts());
    assert.ok(!bad.ok && bad.failure.kind === 'network' && bad.failure.message.includes('http:'), JSON.stringify(bad));
  });
});
