import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { silentLogger } from '../core/logger.js';
import { noopMetrics } from '../metrics/noop.js';
import { createHttpServer } from './server.js';
import type { HttpServer } from './server.js';

/** Prebid Server's list (its router's CORS options), as it is written. */
const ALLOWED_REQUEST_HEADERS = 'Origin, X-Requested-With, Content-Type, Accept';

let http: HttpServer;
before(async () => {
  http = createHttpServer({
    logger: silentLogger,
    metrics: noopMetrics,
    accessLog: false,
    slowRequestMs: 0,
    keepAliveTimeoutMs: 5000,
    headersTimeoutMs: 60_000,
    requestTimeoutMs: 300_000,
    lanes: 'all',
    trustedProxies: [],
  });
  http.answerPost('/openrtb2/auction', 1024, () => ({ status: 200, contentType: 'application/json', body: '{}' }));
  await http.fastify.ready();
});
after(() => http.fastify.close());

const preflight = (headers: Record<string, string>) => http.fastify.inject({ method: 'OPTIONS', url: '/openrtb2/auction', headers });

describe('CORS preflights', () => {
  it("answer Prebid Server's fixed list of request headers, never an echo of those asked for", async () => {
    for (const asked of ['content-type', 'content-type,x-evil', 'authorization', 'x-' + 'a'.repeat(2000)]) {
      const res = await preflight({ origin: 'https://pub.example', 'access-control-request-method': 'POST', 'access-control-request-headers': asked });
      assert.equal(res.statusCode, 204);
      assert.equal(res.headers['access-control-allow-headers'], ALLOWED_REQUEST_HEADERS, asked);
      assert.equal(res.headers['access-control-allow-origin'], 'https://pub.example');
      assert.equal(res.headers['access-control-allow-credentials'], 'true');
      assert.equal(res.headers['access-control-allow-methods'], 'GET, POST, HEAD, OPTIONS');
    }
  });

  it('a preflight asking for no header gets the list too; an OPTIONS that is not a preflight gets none', async () => {
    const plain = await preflight({ origin: 'https://pub.example', 'access-control-request-method': 'GET' });
    assert.equal(plain.headers['access-control-allow-headers'], ALLOWED_REQUEST_HEADERS);
    const notPreflight = await preflight({ origin: 'https://pub.example', 'access-control-request-headers': 'x-evil' });
    assert.equal(notPreflight.statusCode, 204);
    assert.equal(notPreflight.headers['access-control-allow-headers'], undefined);
    assert.equal(notPreflight.headers['access-control-allow-methods'], undefined);
  });
});
