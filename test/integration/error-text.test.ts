import assert from 'node:assert/strict';
import { mkdtempSync, writeFileSync } from 'node:fs';
import { connect } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import { buildTestApp } from '../support/app.js';
import type { TestApp } from '../support/app.js';

/*
 * Issue 36, finding 6: an internal error's text reached a caller. Every answer says what is wrong
 * in openbid's words; none carries a caught exception's message (a parser's, a framework's, a
 * socket's). Bidder and cache failures, consent strings and the request bodies are covered beside
 * their routes (test/fixtures/auction/bidder-errors.json, cache-*.json, privacy-api.test.ts, …);
 * here: what the framework and the stored data say, over a real socket.
 */

let app: TestApp;
let port = 0;

before(async () => {
  const stored = mkdtempSync(join(tmpdir(), 'openbid-stored-'));
  writeFileSync(join(stored, 'broken.json'), '{"imp": [ {"id": "i" } ,');
  app = await buildTestApp({ stored_requests: { filesystem: { directory: stored } } });
  port = Number(new URL(await app.server.listen({ host: '127.0.0.1', port: 0 })).port);
});
after(() => app.close());

/** One raw HTTP/1.1 request (`Connection: close`): the status line and the body. */
const raw = (head: string, body = ''): Promise<{ status: string; body: string }> =>
  new Promise((resolve, reject) => {
    const socket = connect(port, '127.0.0.1', () => socket.write(`${head}\r\nHost: x\r\nConnection: close\r\nContent-Length: ${Buffer.byteLength(body)}\r\n\r\n${body}`));
    let out = '';
    socket.setEncoding('utf8');
    socket.setTimeout(5000, () => socket.destroy(new Error('no answer within 5 s')));
    socket.on('data', (d: string) => (out += d));
    socket.on('error', reject);
    socket.on('close', () => resolve({ status: out.split('\r\n')[0] ?? '', body: out.slice(out.indexOf('\r\n\r\n') + 4) }));
  });

describe('answers never carry an exception message', () => {
  it('a bad percent-encoding in the path: 400 in our words, the URL not echoed (Fastify answered JSON quoting it)', async () => {
    for (const path of ['/cache%zz', '/openrtb2/auction%E0%A4%A']) {
      const res = await raw(`GET ${path} HTTP/1.1`);
      assert.equal(res.status, 'HTTP/1.1 400 Bad Request', path);
      assert.equal(res.body, 'The request URL is not valid (a bad percent-encoding).', path);
    }
  });

  it('a framework client error (an unsupported media type) keeps its fixed text', async () => {
    const res = await raw('POST /cache HTTP/1.1\r\nContent-Type: ;;;', '{}');
    assert.equal(res.status, 'HTTP/1.1 415 Unsupported Media Type');
    assert.equal(res.body, 'Unsupported Media Type');
  });

  it("a stored request that is not JSON: the AMP answer names it, not the parser's message quoting the host's data", async () => {
    const res = await raw('GET /openrtb2/amp?tag_id=broken HTTP/1.1');
    assert.equal(res.status, 'HTTP/1.1 503 Service Unavailable');
    assert.equal(res.body, "the stored request of tag_id 'broken' is not valid JSON");
  });
});
