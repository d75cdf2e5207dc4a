import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { buildTestApp } from '../support/app.js';
import type { TestApp } from '../support/app.js';
import { runFixtureDir } from '../support/fixtures.js';
import { startRedis } from '../support/redis.js';
import type { RedisServer } from '../support/redis.js';

const uid = (n: number): string => `00000000-0000-4000-8000-${n.toString(16).padStart(12, '0')}`;
const TIMEOUT_MS = 150;

let redis: RedisServer;
before(async () => {
  redis = await startRedis();
});
after(async () => {
  await redis.stop();
});

const redisConfig = (extra: Record<string, unknown> = {}): Record<string, unknown> => ({
  cache: { backend: { type: 'redis', redis: { url: redis.url, timeout_ms: TIMEOUT_MS } }, ...extra },
});

// Every endpoint rule holds on Redis exactly as on the memory store.
runFixtureDir(new URL('../fixtures/cache', import.meta.url).pathname, {
  label: 'redis',
  baseConfig: () => redisConfig(),
  beforeEach: async () => {
    await redis.admin.flushAll();
  },
});

describe('/cache on Redis', () => {
  let app: TestApp;
  before(async () => {
    await redis.admin.flushAll();
    app = await buildTestApp(redisConfig());
  });
  after(async () => {
    await app.close();
  });

  const put = (puts: unknown[]) => app.server.inject({ method: 'POST', url: '/cache', payload: JSON.stringify({ puts }) });

  it('stores under the uuid, with the type prefix Prebid Cache uses', async () => {
    const res = await put([{ type: 'xml', value: '<VAST/>' }, { type: 'json', value: { a: 1 } }]);
    assert.equal(res.statusCode, 200);
    const [x, j] = res.json<{ responses: { uuid: string }[] }>().responses.map((r) => r.uuid);
    const raw = redis.admin;
    assert.equal(await raw.get(x ?? ''), 'xml<VAST/>');
    assert.equal(await raw.get(j ?? ''), 'json{"a":1}');
  });

  it('reads values written by another Prebid Cache sharing the Redis', async () => {
    await redis.admin.set('written-by-prebid-cache-00000000000000', 'json{"from":"pbc"}', { EX: 60 });
    const appWithKeys = await buildTestApp(redisConfig({ request_limits: { allow_setting_keys: true } }));
    const res = await appWithKeys.server.inject({ method: 'GET', url: '/cache?uuid=written-by-prebid-cache-00000000000000' });
    await appWithKeys.close();
    assert.equal(res.statusCode, 200);
    assert.equal(res.headers['content-type'], 'application/json');
    assert.equal(res.body, '{"from":"pbc"}');
  });

  it('reports Redis call latency in /metrics', async () => {
    await put([{ type: 'xml', value: '<m/>' }]);
    await app.server.inject({ method: 'GET', url: `/cache?uuid=${uid(1)}` });
    const text = (await app.metrics.render()).body;
    assert.match(text, /openbid_store_call_duration_seconds_count\{store="cache",op="put"\} [1-9]/);
    assert.match(text, /openbid_store_call_duration_seconds_count\{store="cache",op="get"\} [1-9]/);
  });

  it('answers 500 for stored data of unknown type', async () => {
    const id = '11111111-1111-4111-8111-111111111111';
    await redis.admin.set(id, 'yaml: 1', { EX: 60 });
    const res = await app.server.inject({ method: 'GET', url: `/cache?uuid=${id}` });
    assert.equal(res.statusCode, 500);
    assert.equal(res.body, `GET /cache uuid=${id}: Cache data was corrupted. Cannot determine type.`);
  });

  it('sets the Redis TTL: as given, the maximum when missing or 0, capped above it', async () => {
    const res = await put([
      { type: 'xml', value: 'a', ttlseconds: 60 },
      { type: 'xml', value: 'b' },
      { type: 'xml', value: 'c', ttlseconds: 0 },
      { type: 'xml', value: 'd', ttlseconds: 999999 },
    ]);
    const ids = res.json<{ responses: { uuid: string }[] }>().responses.map((r) => r.uuid);
    const ttls = await Promise.all(ids.map((id) => redis.admin.ttl(id)));
    assert.ok(ttls[0] !== undefined && ttls[0] > 55 && ttls[0] <= 60, `ttl ${ttls[0]}`);
    for (const t of ttls.slice(1)) assert.ok(t > 3590 && t <= 3600, `ttl ${t}`);
  });
});

describe('/cache when Redis fails', () => {
  it('answers 504 within the timeout on a hung Redis, 503 on a dead one, and recovers by itself', async () => {
    const own = await startRedis();
    const app = await buildTestApp({ cache: { backend: { type: 'redis', redis: { url: own.url, timeout_ms: TIMEOUT_MS } } } });
    try {
      const body = JSON.stringify({ puts: [{ type: 'xml', value: '<VAST/>' }] });
      own.pause();
      let started = Date.now();
      const hungPut = await app.server.inject({ method: 'POST', url: '/cache', payload: body });
      const hungGet = await app.server.inject({ method: 'GET', url: `/cache?uuid=${uid(99)}` });
      const elapsed = Date.now() - started;
      own.resume();
      assert.equal(hungPut.statusCode, 504);
      assert.equal(hungPut.body, 'timeout writing value to the backend.');
      assert.equal(hungGet.statusCode, 504);
      assert.ok(elapsed < 2 * TIMEOUT_MS + 250, `two requests took ${elapsed} ms`);
      const metrics = (await app.metrics.render()).body;
      assert.match(metrics, /openbid_store_errors_total\{store="cache",op="put",reason="timeout"\} 1/);
      assert.match(metrics, /openbid_cache_puts_total\{type="xml",result="error"\} 1/);

      await own.stop({ hard: true });
      started = Date.now();
      const deadPut = await app.server.inject({ method: 'POST', url: '/cache', payload: body });
      assert.ok(deadPut.statusCode === 503 || deadPut.statusCode === 504, `status ${deadPut.statusCode}`);
      assert.ok(Date.now() - started < TIMEOUT_MS + 150);

      const back = await startRedis({ port: own.port });
      try {
        let status = 0;
        for (let i = 0; i < 100 && status !== 200; i++) {
          status = (await app.server.inject({ method: 'POST', url: '/cache', payload: body })).statusCode;
          if (status !== 200) await new Promise((r) => setTimeout(r, 100));
        }
        assert.equal(status, 200, 'the server did not recover when Redis came back');
      } finally {
        await back.stop();
      }
    } finally {
      own.resume();
      await app.close();
      await own.stop();
    }
  });
});
