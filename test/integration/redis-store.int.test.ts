import assert from 'node:assert/strict';
import { randomUUID } from 'node:crypto';
import { after, before, describe, it } from 'node:test';
import type { KeyValueStore } from '../../src/kv/key-value-store.js';
import { createRedisClient, createRedisStore } from '../../src/kv/stores/redis.js';
import type { RedisClient } from '../../src/kv/stores/redis.js';
import { isAppError } from '../../src/core/app-error.js';
import { silentLogger } from '../../src/core/logger.js';
import { waitFor } from '../support/ports.js';
import { adminClient, startRedis, startRedisCluster } from '../support/redis.js';
import type { RedisCluster, RedisServer } from '../support/redis.js';
import { keyValueStoreContract } from '../support/store-contract.js';

/** The call deadline of the tests about deadlines: a hung or dead Redis. */
const TIMEOUT_MS = 150;
/**
 * The call deadline of the others: they are about what the store does, not its latency, and a
 * call on a loaded machine (both cores busy) overran 150 ms.
 */
const WORK_TIMEOUT_MS = 2000;

const openStore = async (conn: { url?: string; clusterNodes?: string[] }, timeoutMs = WORK_TIMEOUT_MS): Promise<{ store: KeyValueStore; client: RedisClient }> => {
  const client = createRedisClient({ ...conn, timeoutMs, logger: silentLogger });
  assert.ok(await client.waitUntilReady(5000), 'redis client did not become ready');
  return { client, store: createRedisStore({ client, timeoutMs, ownsClient: true }) };
};

const entry = (key: string, value: string) => ({ key, value: Buffer.from(value), ttlSeconds: 60 });

const isBackendError = (code: string) => (err: unknown) => isAppError(err) && err.code === code;

describe('redis store on a single node', () => {
  let redis: RedisServer;
  before(async () => {
    redis = await startRedis();
  });
  after(async () => {
    await redis.stop();
  });

  keyValueStoreContract('redis (single node)', async () => {
    const { store } = await openStore({ url: redis.url });
    return { store, cleanup: () => store.close() };
  });

  it('stores with the given key, the bytes as given and an EX TTL', async (t) => {
    const { store } = await openStore({ url: redis.url });
    t.after(() => store.close());
    const key = `plain-${randomUUID()}`;
    await store.putMany([{ key, value: Buffer.from('xml<VAST/>'), ttlSeconds: 42 }], { createOnly: true });
    const raw = redis.admin;
    assert.equal(await raw.get(key), 'xml<VAST/>');
    const ttl = await raw.ttl(key);
    assert.ok(ttl > 40 && ttl <= 42, `ttl ${ttl}`);
  });

  it('fails a call on a hung Redis within its deadline, and undoes a write that lands late', async (t) => {
    const { store } = await openStore({ url: redis.url }, TIMEOUT_MS);
    t.after(() => store.close());
    const key = `late-${randomUUID()}`;
    redis.pause();
    try {
      const started = Date.now();
      await assert.rejects(async () => store.putMany([entry(key, 'late')], { createOnly: true }), isBackendError('BACKEND_TIMEOUT'));
      await assert.rejects(async () => store.get(key), isBackendError('BACKEND_TIMEOUT'));
      const elapsed = Date.now() - started;
      assert.ok(elapsed < 2 * TIMEOUT_MS + 200, `two calls took ${elapsed} ms`);
    } finally {
      redis.resume();
    }
    // The SET was already on the wire; the undo queued behind it removes it once Redis wakes up.
    const raw = redis.admin;
    await waitFor('late write undone', async () => (await raw.exists(key)) === 0, 3000);
  });

  it('applies a multi-entry batch as one transaction', async (t) => {
    const { store } = await openStore({ url: redis.url });
    t.after(() => store.close());
    const raw = redis.admin;
    const keys = [randomUUID(), randomUUID(), randomUUID()];
    // With no memory to spare, Redis refuses the queued writes and discards the whole transaction.
    await raw.configSet('maxmemory', '1');
    try {
      await assert.rejects(async () => store.putMany(keys.map((k) => entry(k, 'v')), { createOnly: true }), isBackendError('BACKEND_FAILURE'));
    } finally {
      await raw.configSet('maxmemory', '0');
    }
    for (const k of keys) assert.equal(await raw.exists(k), 0);
  });
});

describe('redis store across a restart', () => {
  it('fails fast while Redis is down and recovers by itself when it is back', async () => {
    const redis = await startRedis();
    const { store } = await openStore({ url: redis.url }, TIMEOUT_MS);
    await redis.stop({ hard: true });
    const started = Date.now();
    await assert.rejects(async () => store.get('any'), (err) => isAppError(err) && err.code.startsWith('BACKEND_'));
    assert.ok(Date.now() - started <= TIMEOUT_MS + 100, 'a call on a dead Redis must not wait past its deadline');

    const again = await startRedis({ port: redis.port });
    try {
      const key = randomUUID();
      await waitFor('store usable again', async () => (await store.putMany([entry(key, 'back')], { createOnly: false }))[0] === true, 10_000);
      assert.equal((await store.get(key))?.toString(), 'back');
    } finally {
      await store.close();
      await again.stop();
    }
  });
});

describe('redis store with a password', () => {
  it('authenticates with the password of the URL and is refused without it', async () => {
    const redis = await startRedis({ password: 's3cr=t' });
    try {
      const { store } = await openStore({ url: redis.url });
      const key = randomUUID();
      assert.deepEqual(await store.putMany([entry(key, 'v')], { createOnly: true }), [true]);
      assert.equal((await store.get(key))?.toString(), 'v');
      await store.close();

      const client = createRedisClient({ url: `redis://127.0.0.1:${redis.port}`, timeoutMs: WORK_TIMEOUT_MS, logger: silentLogger });
      const unauthenticated = createRedisStore({ client, timeoutMs: WORK_TIMEOUT_MS, ownsClient: true });
      try {
        await client.waitUntilReady(1000);
        await assert.rejects(async () => unauthenticated.get(key), (err) => isAppError(err) && err.code === 'BACKEND_FAILURE' && /NOAUTH/.test(err.message));
      } finally {
        await unauthenticated.close();
      }
    } finally {
      await redis.stop();
    }
  });
});

describe('redis store on a 3-master cluster', () => {
  let cluster: RedisCluster;
  before(async () => {
    cluster = await startRedisCluster();
  });
  after(async () => {
    await cluster.stop();
  });

  keyValueStoreContract('redis (cluster)', async () => {
    const { store } = await openStore({ clusterNodes: cluster.nodes });
    return { store, cleanup: () => store.close() };
  });

  const masters = () => Promise.all(cluster.nodes.map((n) => adminClient(Number(n.split(':')[1]))));

  it('spreads keys over the masters', async (t) => {
    const { store, client } = await openStore({ clusterNodes: cluster.nodes });
    t.after(() => store.close());
    assert.ok(client.isCluster);
    const keys = Array.from({ length: 30 }, () => randomUUID());
    await store.putMany(keys.map((k) => entry(k, 'v')), { createOnly: true });
    const nodes = await masters();
    const counts = await Promise.all(nodes.map((n) => n.dbSize()));
    for (const n of nodes) n.destroy();
    assert.equal(counts.length, 3);
    assert.ok(counts.every((c) => c > 0), `keys per master: ${counts.join(',')}`);
  });

  /** `count` fresh keys whose hash slots the master `index` serves, asked of that master itself. */
  const keysServedBy = async (index: number, count: number): Promise<string[]> => {
    const node = await adminClient(Number(cluster.nodes[index]?.split(':')[1]));
    try {
      const myId = await node.clusterMyId();
      const ranges = (await node.clusterSlots()).filter((r) => r.master.id === myId);
      const keys: string[] = [];
      // Each master serves about a third of the slots, so this ends after ~3 tries per key; the bound is a guard.
      for (let tries = 0; keys.length < count && tries < 1000; tries++) {
        const key = randomUUID();
        const slot = await node.clusterKeySlot(key);
        if (ranges.some((r) => slot >= r.from && slot <= r.to)) keys.push(key);
      }
      assert.equal(keys.length, count, `master ${index} serves no slot`);
      return keys;
    } finally {
      node.destroy();
    }
  };

  it('leaves none of a batch readable when one master hangs', async (t) => {
    const { store } = await openStore({ clusterNodes: cluster.nodes }, TIMEOUT_MS);
    t.after(() => store.close());
    // The batch must touch the hung master and the healthy ones: 12 random keys missed one ~1 time in 130.
    const keys = [...(await keysServedBy(0, 4)), ...(await keysServedBy(1, 4)), ...(await keysServedBy(2, 4))];
    cluster.pauseNode(0);
    try {
      await assert.rejects(async () => store.putMany(keys.map((k) => entry(k, 'v')), { createOnly: true }), isBackendError('BACKEND_TIMEOUT'));
    } finally {
      cluster.resumeNode(0);
    }
    await waitFor('every key of the failed batch gone', async () => {
      const nodes = await masters();
      try {
        const found = await Promise.all(nodes.map((n) => Promise.all(keys.map((k) => n.exists(k).catch(() => 0)))));
        return found.flat().every((e) => e === 0);
      } finally {
        for (const n of nodes) n.destroy();
      }
    }, 5000);
  });
});
