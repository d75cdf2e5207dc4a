import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { Agent, request } from 'undici';
import { silentLogger } from '../core/logger.js';
import { noopMetrics } from '../metrics/noop.js';
import { statusRoutes } from './routes/status.js';
import { createHttpServer } from './server.js';
import type { HttpServer, LanesSetting } from './server.js';

/**
 * Which path serves a request under each `server.lanes` value, and the client's address on every
 * path. A request node:http parses is a 'request' event on its server; one that reaches Fastify
 * runs its `onRequest` hooks; the socket lane serves a request with neither.
 */
const serve = async (lanes: LanesSetting, opts: { accessLog?: boolean; trustedProxies?: readonly string[] } = {}) => {
  const http: HttpServer = createHttpServer({
    logger: silentLogger,
    metrics: noopMetrics,
    accessLog: opts.accessLog ?? false,
    slowRequestMs: 0,
    keepAliveTimeoutMs: 5000,
    headersTimeoutMs: 60_000,
    requestTimeoutMs: 300_000,
    lanes,
    trustedProxies: opts.trustedProxies ?? [],
  });
  const seen = { node: 0, fastify: 0 };
  http.fastify.addHook('onRequest', (_req, _reply, done) => {
    seen.fastify++;
    done();
  });
  http.answerGet('/ip', ({ ip }) => ({ status: 200, contentType: 'text/plain', body: ip }));
  http.answerPost('/ip', 64, ({ ip }) => ({ status: 200, contentType: 'text/plain', body: ip }));
  // A route written for Fastify alone reads `req.ip`.
  http.fastify.get('/fastify-ip', async (req) => req.ip);
  statusRoutes(http, { isShuttingDown: () => false });
  const base = await http.fastify.listen({ host: '127.0.0.1', port: 0 });
  http.fastify.server.on('request', () => seen.node++);
  return { http, base, seen };
};

describe('server.lanes', () => {
  const agent = new Agent({ pipelining: 1 });
  after(() => agent.close());

  const cases: [LanesSetting, boolean, { node: number; fastify: number }][] = [
    ['all', false, { node: 0, fastify: 0 }],
    ['node', false, { node: 2, fastify: 0 }],
    ['off', false, { node: 2, fastify: 2 }],
    // Access logs are written by Fastify: with them on, it serves everything whatever the setting.
    ['all', true, { node: 2, fastify: 2 }],
  ];
  for (const [lanes, accessLog, expected] of cases) {
    it(`${lanes}${accessLog ? ' with access logs' : ''}: GET /ip and GET /status on a keep-alive connection go to ${JSON.stringify(expected)}`, async () => {
      const { http, base, seen } = await serve(lanes, { accessLog });
      try {
        const ip = await request(`${base}/ip`, { dispatcher: agent });
        assert.equal(await ip.body.text(), '127.0.0.1');
        const status = await request(`${base}/status`, { dispatcher: agent });
        await status.body.dump();
        assert.equal(status.statusCode, 204);
        assert.equal(status.headers['content-length'], undefined);
        assert.equal(status.headers['cache-control'], 'no-cache');
        assert.deepEqual(seen, expected);
      } finally {
        await http.fastify.close();
      }
    });
  }
});

describe('the client\'s address behind server.trusted_proxies', () => {
  let server: Awaited<ReturnType<typeof serve>>;
  before(async () => {
    server = await serve('all', { trustedProxies: ['loopback'] });
  });
  after(() => server.http.fastify.close());

  it('is the same on the socket lane, the node lane and Fastify, for lane routes and Fastify\'s own', async () => {
    const forwarded = { 'x-forwarded-for': '198.51.100.1, 203.0.113.9' };
    const answers: [string, string][] = [];
    const ask = async (label: string, url: string, headers: Record<string, string>, method: 'GET' | 'POST' | 'HEAD' = 'GET'): Promise<void> => {
      const res = await request(`${server.base}${url}`, { method, headers: { ...forwarded, ...headers }, ...(method === 'POST' ? { body: '{}' } : {}) });
      answers.push([label, await res.body.text()]);
    };
    await ask('socket lane GET', '/ip', {});
    await ask('socket lane POST', '/ip', { 'content-type': 'application/json' }, 'POST');
    await ask('node lane', '/ip', { connection: 'close' });
    await ask('Fastify, lane route', '/ip/', {});
    await ask('Fastify, POST of another type', '/ip', { 'content-type': 'application/x-www-form-urlencoded' }, 'POST');
    await ask('Fastify, own route', '/fastify-ip', {});
    assert.deepEqual(answers, [
      ['socket lane GET', '203.0.113.9'],
      ['socket lane POST', '203.0.113.9'],
      ['node lane', '203.0.113.9'],
      ['Fastify, lane route', '203.0.113.9'],
      ['Fastify, POST of another type', '203.0.113.9'],
      ['Fastify, own route', '203.0.113.9'],
    ]);
    assert.equal(server.seen.fastify, 3, 'three of them reached Fastify');
  });
});
