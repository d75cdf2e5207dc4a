import { Cluster, Redis } from 'ioredis';
import type { RedisOptions } from 'ioredis';
import { AppError, ErrorCode } from '../../core/app-error.js';
import type { Logger } from '../../core/logger.js';
import type { CacheStore, PutManyOptions, StoreEntry } from '../cache-store.js';

export type RedisClient = Redis | Cluster;

export interface RedisConnectionOptions {
  /** `redis://[user:password@]host:port[/db]` or `rediss://` for TLS. */
  readonly url?: string;
  /** Alternatively host, port and password (the storage configuration's shape). */
  readonly host?: string;
  readonly port?: number;
  readonly password?: string;
  /** `host:port` seeds; non-empty means Redis Cluster (credentials and TLS still come from `url`). */
  readonly clusterNodes?: readonly string[];
  /** Connect timeout and reconnect pacing follow from it. */
  readonly timeoutMs: number;
  readonly logger: Logger;
}

/**
 * Opens a client that reconnects on its own and pipelines commands issued in the same tick.
 * While disconnected, calls fail at once instead of queueing (an offline queue would grow without
 * bound during an outage); connection errors are logged at most once per 5 s, never thrown.
 */
export const createRedisClient = (opts: RedisConnectionOptions): RedisClient => {
  const common: RedisOptions = {
    enableAutoPipelining: true,
    enableOfflineQueue: false,
    connectTimeout: Math.max(1000, opts.timeoutMs * 10),
    // Back off up to 2 s between reconnects; never give up.
    retryStrategy: (times: number) => Math.min(50 * 2 ** Math.min(times, 6), 2000),
    // The store puts its own deadline on each call; no per-request retry limit on top.
    maxRetriesPerRequest: null,
  };
  const fromUrl = opts.url !== undefined ? urlOptions(opts.url) : {};
  const auth: RedisOptions = { ...fromUrl, ...(opts.password ? { password: opts.password } : {}) };
  let client: RedisClient;
  if (opts.clusterNodes !== undefined && opts.clusterNodes.length > 0) {
    const nodes = opts.clusterNodes.map((n) => {
      const at = n.lastIndexOf(':');
      return { host: n.slice(0, at), port: Number(n.slice(at + 1)) };
    });
    const { host: _h, port: _p, db: _db, enableOfflineQueue: _q, ...nodeOptions } = { ...common, ...auth };
    client = new Cluster(nodes, {
      enableAutoPipelining: true,
      enableOfflineQueue: false,
      clusterRetryStrategy: common.retryStrategy,
      redisOptions: nodeOptions,
      slotsRefreshTimeout: Math.max(1000, opts.timeoutMs * 10),
    });
  } else {
    client = new Redis({ ...common, ...auth, ...(opts.host ? { host: opts.host } : {}), ...(opts.port ? { port: opts.port } : {}) });
  }
  logConnectionErrors(client, opts.logger);
  return client;
};

/** Resolves true once the client is ready, false if it is not within `ms` (the caller decides). */
export const waitUntilReady = (client: RedisClient, ms: number): Promise<boolean> =>
  new Promise((resolve) => {
    if (client.status === 'ready') return resolve(true);
    const timer = setTimeout(() => {
      client.off('ready', onReady);
      resolve(false);
    }, ms);
    const onReady = (): void => {
      clearTimeout(timer);
      resolve(true);
    };
    client.once('ready', onReady);
  });

const urlOptions = (url: string): RedisOptions => {
  const u = new URL(url);
  return {
    host: u.hostname,
    port: u.port === '' ? 6379 : Number(u.port),
    ...(u.username ? { username: decodeURIComponent(u.username) } : {}),
    ...(u.password ? { password: decodeURIComponent(u.password) } : {}),
    ...(u.pathname.length > 1 ? { db: Number(u.pathname.slice(1)) } : {}),
    ...(u.protocol === 'rediss:' ? { tls: {} } : {}),
  };
};

const logConnectionErrors = (client: RedisClient, logger: Logger): void => {
  let last = 0;
  client.on('error', (err: Error) => {
    const now = Date.now();
    if (now - last < 5000) return;
    last = now;
    logger.warn({ err: { message: err.message } }, 'redis connection error; reconnecting');
  });
};

export interface RedisStoreOptions {
  readonly client: RedisClient;
  /** Every call settles within this many milliseconds. */
  readonly timeoutMs: number;
  /** Whether `close()` quits the client (false when the client is shared with other stores). */
  readonly ownsClient: boolean;
}

// Deletes the key only while it still holds the bytes this process wrote: undoing a failed
// batch must never remove a value someone else stored under the same key.
const DELETE_IF_UNCHANGED = "if redis.call('GET', KEYS[1]) == ARGV[1] then return redis.call('DEL', KEYS[1]) end return 0";

/**
 * A store on Redis or Redis Cluster. Keys are used as given (no prefix), values are the stored
 * bytes, TTLs are `EX` seconds, create-only writes are `SET NX`.
 *
 * Batches: on a single node a batch of several entries is one `MULTI`/`EXEC`; Redis Cluster cannot
 * run a transaction across hash slots, so there the entries are written in parallel. Whenever a
 * batch fails or times out, every entry is undone with a delete-if-unchanged sent behind the
 * writes on the same connections, so a write that lands late is removed too and a failed call
 * leaves nothing readable.
 */
export const createRedisStore = (opts: RedisStoreOptions): CacheStore => {
  const { client, timeoutMs } = opts;
  const isCluster = client instanceof Cluster;

  const set = (e: StoreEntry, createOnly: boolean): Promise<'OK' | null> =>
    createOnly ? client.set(e.key, e.value, 'EX', e.ttlSeconds, 'NX') : client.set(e.key, e.value, 'EX', e.ttlSeconds);

  const write = async (entries: readonly StoreEntry[], createOnly: boolean): Promise<boolean[]> => {
    if (entries.length === 1 || isCluster) {
      return Promise.all(entries.map(async (e) => (await set(e, createOnly)) === 'OK'));
    }
    const tx = client.multi();
    for (const e of entries) {
      if (createOnly) tx.set(e.key, e.value, 'EX', e.ttlSeconds, 'NX');
      else tx.set(e.key, e.value, 'EX', e.ttlSeconds);
    }
    const results = await tx.exec();
    if (results === null) throw new Error('transaction aborted');
    return results.map(([err, reply]) => {
      if (err) throw err;
      return reply === 'OK';
    });
  };

  const undo = (entries: readonly StoreEntry[]): void => {
    for (const e of entries) client.eval(DELETE_IF_UNCHANGED, 1, e.key, e.value).catch(() => undefined);
  };

  return {
    kind: 'redis',
    get: (key) => deadline(client.getBuffer(key).then((v) => v ?? undefined), timeoutMs),
    putMany: async (entries: readonly StoreEntry[], { createOnly }: PutManyOptions) => {
      if (entries.length === 0) return [];
      try {
        return await deadline(write(entries, createOnly), timeoutMs);
      } catch (err) {
        undo(entries);
        throw err;
      }
    },
    delete: async (keys) => {
      if (keys.length === 0) return;
      // One DEL per key: a multi-key DEL fails in a cluster when the keys hash to different slots.
      await deadline(Promise.all(keys.map((k) => client.del(k))), timeoutMs);
    },
    close: async () => {
      if (!opts.ownsClient) return;
      await closeRedisClient(client);
    },
  };
};

/** Quits politely, or drops the connection if Redis does not answer in a second. */
export const closeRedisClient = async (client: RedisClient): Promise<void> => {
  try {
    await deadline(client.quit(), 1000);
  } catch {
    client.disconnect();
  }
};

/** Settles within `ms`: the call's own result, or a BACKEND_TIMEOUT error; other errors become BACKEND_FAILURE. */
const deadline = <T>(call: Promise<T>, ms: number): Promise<T> =>
  new Promise<T>((resolve, reject) => {
    const timer = setTimeout(() => reject(new AppError(ErrorCode.BACKEND_TIMEOUT, `redis call timed out after ${ms} ms`)), ms);
    call.then(
      (v) => {
        clearTimeout(timer);
        resolve(v);
      },
      (err: unknown) => {
        clearTimeout(timer);
        reject(err instanceof AppError ? err : new AppError(ErrorCode.BACKEND_FAILURE, `redis: ${(err as Error).message}`, { cause: err }));
      },
    );
  });
