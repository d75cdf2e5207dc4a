import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { buildTestApp } from '../support/app.js';
import { runFixtureDir } from '../support/fixtures.js';
import { startRedis } from '../support/redis.js';
import type { RedisServer } from '../support/redis.js';

const PASSWORD = 'storage-pw:=@';
const API_KEY = 'k';
let redis: RedisServer;

before(async () => {
  redis = await startRedis({ password: PASSWORD });
});
after(async () => {
  await redis.stop();
});

/** The storage applications of a config, moved from memory to this Redis (with its password). */
const onRedis = (config: Record<string, unknown>): Record<string, unknown> => {
  const storage = (config.storage ?? {}) as Record<string, unknown>;
  const apps = Object.keys((storage.memory ?? {}));
  const { memory: _memory, ...rest } = storage;
  return {
    ...config,
    // A generous timeout: these cases are about storage rules, and a busy CI machine (the suite runs
    // two files at once, some building) can hold a 100 ms Redis call past the default.
    storage: { ...rest, redis: Object.fromEntries(apps.map((a) => [a, { host: '127.0.0.1', port: redis.port, password: PASSWORD, timeout_ms: 2000 }])) },
  };
};

// Every storage rule holds on Redis as on memory stores.
runFixtureDir(new URL('../fixtures/storage', import.meta.url).pathname, {
  label: 'redis with a password',
  transformConfig: onRedis,
  beforeEach: async () => {
    await redis.admin.flushAll();
  },
});

describe('/storage on Redis', () => {
  const write = (app: Awaited<ReturnType<typeof buildTestApp>>, body: Record<string, unknown>) =>
    app.server.inject({ method: 'POST', url: '/storage', headers: { 'x-svc-api-key': API_KEY }, payload: JSON.stringify(body) });

  it('keeps entries under a storage namespace per application, beside /cache in the same Redis, with the default TTL', async () => {
    await redis.admin.flushAll();
    const app = await buildTestApp({
      api: { 'api-key': API_KEY },
      cache: { backend: { type: 'redis', redis: { url: redis.url } }, request_limits: { allow_setting_keys: true } },
      storage: { redis: { a1: { port: redis.port, password: PASSWORD }, a2: { port: redis.port, password: PASSWORD } } },
    });
    try {
      assert.equal((await write(app, { key: 'same', value: 'one', type: 'text', application: 'a1' })).statusCode, 204);
      assert.equal((await write(app, { key: 'same', value: 'two', type: 'json', application: 'a2' })).statusCode, 204);
      const put = await app.server.inject({ method: 'POST', url: '/cache', payload: JSON.stringify({ puts: [{ type: 'xml', value: '<c/>', key: 'same' }] }) });
      assert.deepEqual(put.json(), { responses: [{ uuid: 'same' }] });

      assert.deepEqual((await redis.admin.keys('*')).sort(), ['openbid-storage:a1:same', 'openbid-storage:a2:same', 'same']);
      assert.equal(await redis.admin.get('openbid-storage:a1:same'), '{"key":"same","type":"text","value":"one"}');
      assert.equal(await redis.admin.get('same'), 'xml<c/>');
      const ttl = await redis.admin.ttl('openbid-storage:a2:same');
      assert.ok(ttl > 295 && ttl <= 300, `ttl ${ttl}`);
      const read = await app.server.inject({ method: 'GET', url: '/storage?a=a2&k=same', headers: { 'x-svc-api-key': API_KEY } });
      assert.deepEqual(read.json(), { key: 'same', type: 'json', value: 'two' });
    } finally {
      await app.close();
    }
  });

  it('opens one connection for applications on the same server', async () => {
    const before = (await redis.admin.clientList()).length;
    const app = await buildTestApp({
      api: { 'api-key': API_KEY },
      storage: { redis: { a1: { port: redis.port, password: PASSWORD }, a2: { port: redis.port, password: PASSWORD }, a3: { port: redis.port, password: PASSWORD } } },
    });
    try {
      assert.equal((await redis.admin.clientList()).length - before, 1);
    } finally {
      await app.close();
    }
  });

  it('answers 503 for a storage Redis that refuses the password, and counts it', async () => {
    const app = await buildTestApp({ api: { 'api-key': API_KEY }, storage: { redis: { a1: { port: redis.port, password: 'wrong' } } } });
    try {
      const res = await write(app, { key: 'k', value: 'v', type: 'text', application: 'a1' });
      assert.equal(res.statusCode, 503);
      assert.equal(res.body, "storage write for application 'a1' failed.");
      const metrics = (await app.metrics.render()).body;
      assert.match(metrics, /openbid_storage_operations_total\{application="a1",op="write",result="error"\} 1/);
    } finally {
      await app.close();
    }
  });

  it('answers 504 when the storage Redis hangs', async () => {
    const own = await startRedis();
    const app = await buildTestApp({ api: { 'api-key': API_KEY }, storage: { redis: { a1: { port: own.port, timeout_ms: 100 } } } });
    try {
      own.pause();
      const started = Date.now();
      const res = await write(app, { key: 'k', value: 'v', type: 'text', application: 'a1' });
      own.resume();
      assert.equal(res.statusCode, 504);
      assert.equal(res.body, "storage write for application 'a1' failed: timed out.");
      assert.ok(Date.now() - started < 400);
    } finally {
      own.resume();
      await app.close();
      await own.stop();
    }
  });
});
