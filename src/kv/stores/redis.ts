import { createCluster } from 'redis';
import { AppError, ErrorCode } from '../../core/app-error.js';
import { throttledLog } from '../../core/log-throttle.js';
import type { Logger } from '../../core/logger.js';
import type { KeyValueEntry, KeyValueStore, PutManyOptions } from '../key-value-store.js';
import { BINARY, openNodeLink, parseHostPort } from './redis-node.js';
import type { Commands, RedisAuth, Transaction } from './redis-node.js';
import { followSentinelMaster } from './redis-sentinel.js';

export interface RedisSentinelOptions {
  /** The master's name as the sentinels monitor it. */
  readonly masterName: string;
  /** `host:port` of the sentinels. */
  readonly nodes: readonly string[];
  /** Password of the master and replicas. */
  readonly password?: string;
  /** Password of the sentinels themselves. */
  readonly sentinelPassword?: string;
}

export interface RedisConnectionOptions {
  /** `redis://[user:password@]host:port[/db]` or `rediss://` for TLS. */
  readonly url?: string;
  /** Alternatively host, port and password (the storage configuration's shape). */
  readonly host?: string;
  readonly port?: number;
  readonly password?: string;
  /** `host:port` seeds; non-empty means Redis Cluster (credentials and TLS still come from `url`). */
  readonly clusterNodes?: readonly string[];
  /** Redis Sentinel: the master the sentinels name, followed through failovers (url, host, port unused). */
  readonly sentinel?: RedisSentinelOptions;
  /** Connect timeout and reconnect pacing follow from it. */
  readonly timeoutMs: number;
  readonly logger: Logger;
}

/**
 * A connection to Redis, Redis Cluster or the master named by Redis Sentinel (node-redis 5). It
 * reconnects on its own; while disconnected (or, under Sentinel, while no master is reachable),
 * calls fail at once instead of queueing (an offline queue would grow without bound during an
 * outage). Connection errors are logged at most once per 5 s, never thrown.
 */
export interface RedisClient {
  readonly isCluster: boolean;
  /** Resolves true once connected, false if that takes longer than `ms`. */
  waitUntilReady(ms: number): Promise<boolean>;
  /** Waits up to a second for replies still due, then drops the connection. Idempotent. */
  close(): Promise<void>;
  /** @internal for the store */
  readonly commands: Commands;
  /** @internal a transaction on a single node (undefined on a cluster) */
  readonly transaction?: Transaction;
}

export const createRedisClient = (opts: RedisConnectionOptions): RedisClient => {
  const url = opts.url !== undefined && opts.sentinel === undefined ? new URL(opts.url) : undefined;
  const tls = url?.protocol === 'rediss:';
  const auth: RedisAuth = {
    ...(url?.username ? { username: decodeURIComponent(url.username) } : {}),
    ...(url?.password ? { password: decodeURIComponent(url.password) } : {}),
    ...(opts.password ? { password: opts.password } : {}),
  };
  const socket = {
    connectTimeout: Math.max(1000, opts.timeoutMs * 10),
    // Back off up to 2 s between reconnects; never give up.
    reconnectStrategy: (retries: number) => Math.min(50 * 2 ** Math.min(retries, 6), 2000),
    ...(tls ? { tls: true as const } : {}),
  };
  const logError = throttledErrorLog(opts.logger);
  let ready = false;
  let closed = false;
  const readyWaiters = new Set<() => void>();
  const markReady = (): void => {
    ready = true;
    for (const w of readyWaiters) w();
    readyWaiters.clear();
  };

  let commands: Commands;
  let close: () => Promise<void>;
  let transaction: RedisClient['transaction'];
  /** `end` run on the first close only; later closes resolve at once. */
  const closingOnce =
    (end: () => Promise<void>): (() => Promise<void>) =>
    async () => {
      if (closed) return;
      closed = true;
      await end();
    };

  if (opts.sentinel !== undefined) {
    const { sentinel } = opts;
    const follower = followSentinelMaster({
      masterName: sentinel.masterName,
      sentinels: sentinel.nodes.map(parseHostPort),
      ...(sentinel.sentinelPassword ? { sentinelPassword: sentinel.sentinelPassword } : {}),
      askTimeoutMs: socket.connectTimeout,
      openMaster: (host, port, onDown) =>
        openNodeLink({
          host,
          port,
          auth: sentinel.password ? { password: sentinel.password } : {},
          socket,
          onError: (err) => {
            logError(err);
            onDown();
          },
          onReady: markReady,
        }),
      onError: logError,
      logger: opts.logger,
    });
    commands = follower.commands;
    transaction = follower.transaction;
    close = closingOnce(() => follower.close());
  } else if (opts.clusterNodes !== undefined && opts.clusterNodes.length > 0) {
    const cluster = createCluster({
      rootNodes: opts.clusterNodes.map((n) => ({ socket: parseHostPort(n) })),
      defaults: { ...auth, socket, disableOfflineQueue: true },
    });
    cluster.on('error', logError);
    // A cluster gives up when no seed answers at start; keep trying in the background.
    const connect = (attempt: number): void => {
      cluster.connect().then(markReady, (err: unknown) => {
        logError(err);
        if (!closed) setTimeout(() => connect(attempt + 1), socket.reconnectStrategy(attempt)).unref();
      });
    };
    connect(0);
    commands = cluster.withTypeMapping(BINARY);
    close = closingOnce(async () => {
      if (!ready) return;
      await deadline(() => cluster.close(), 1000).catch(() => cluster.destroy());
    });
  } else {
    const node = openNodeLink({
      host: opts.host ?? url?.hostname ?? '127.0.0.1',
      port: opts.port ?? (url?.port ? Number(url.port) : 6379),
      auth,
      ...(url && url.pathname.length > 1 ? { database: Number(url.pathname.slice(1)) } : {}),
      socket,
      onError: logError,
      onReady: markReady,
    });
    commands = node.commands;
    transaction = node.transaction;
    close = closingOnce(() => node.close());
  }

  return {
    isCluster: transaction === undefined,
    commands,
    ...(transaction ? { transaction } : {}),
    close,
    waitUntilReady: (ms) =>
      new Promise((resolve) => {
        if (ready) return resolve(true);
        const timer = setTimeout(() => {
          readyWaiters.delete(done);
          resolve(false);
        }, ms);
        const done = (): void => {
          clearTimeout(timer);
          resolve(true);
        };
        readyWaiters.add(done);
      }),
  };
};

const throttledErrorLog = (logger: Logger) => {
  const throttle = throttledLog();
  return (err: unknown): void =>
    throttle((suppressed) => logger.warn({ err: { message: (err as Error).message }, suppressed }, 'redis connection error; reconnecting'));
};

export interface RedisStoreOptions {
  readonly client: RedisClient;
  /** Every call settles within this many milliseconds. */
  readonly timeoutMs: number;
  /** Whether `close()` closes the client (false when the client is shared with other stores). */
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
export const createRedisStore = (opts: RedisStoreOptions): KeyValueStore => {
  const { client, timeoutMs } = opts;
  const { commands } = client;
  let closed = false;

  const set = (e: KeyValueEntry, createOnly: boolean): Promise<unknown> =>
    commands.set(e.key, e.value, createOnly ? { EX: e.ttlSeconds, NX: true } : { EX: e.ttlSeconds });

  const write = (entries: readonly KeyValueEntry[], createOnly: boolean): Promise<boolean[]> => {
    if (entries.length === 1) return set(entries[0] as KeyValueEntry, createOnly).then((reply) => [reply === 'OK']);
    if (client.transaction === undefined) return Promise.all(entries.map(async (e) => (await set(e, createOnly)) === 'OK'));
    return client.transaction(entries, createOnly).then((replies) => replies.map((reply) => reply === 'OK'));
  };

  const undo = (entries: readonly KeyValueEntry[]): void => {
    for (const e of entries) commands.eval(DELETE_IF_UNCHANGED, { keys: [e.key], arguments: [e.value] }).catch(() => undefined);
  };

  const closedError = (): AppError => new AppError(ErrorCode.BACKEND_FAILURE, 'redis store is closed');
  const ensureOpen = (): void => {
    if (closed) throw closedError();
  };

  return {
    kind: 'redis',
    copiesOnPut: false,
    // Not async: on a GET /cache hit each promise layer costs a microtask turn.
    get: (key) => (closed ? Promise.reject(closedError()) : deadline(() => commands.get(key), timeoutMs, orUndefined)),
    putMany: (entries: readonly KeyValueEntry[], { createOnly }: PutManyOptions) => {
      if (closed) return Promise.reject(closedError());
      if (entries.length === 0) return Promise.resolve([]);
      return deadline(() => write(entries, createOnly), timeoutMs).catch((err: unknown) => {
        undo(entries);
        throw err;
      });
    },
    delete: async (keys) => {
      ensureOpen();
      if (keys.length === 0) return;
      // One DEL per key: a multi-key DEL fails in a cluster when the keys hash to different slots.
      await deadline(() => Promise.all(keys.map((k) => commands.del(k))), timeoutMs);
    },
    close: async () => {
      closed = true;
      if (opts.ownsClient) await client.close();
    },
  };
};

const orUndefined = <T>(v: T | null): T | undefined => v ?? undefined;

const asBackendError = (err: unknown): AppError =>
  err instanceof AppError ? err : new AppError(ErrorCode.BACKEND_FAILURE, `redis: ${(err as Error).message}`, { cause: err });

/**
 * Starts `call` and settles within `ms`: its own result (through `map`, if given), or a
 * BACKEND_TIMEOUT error; other errors, thrown or rejected, become BACKEND_FAILURE.
 */
function deadline<T>(call: () => Promise<T>, ms: number): Promise<T>;
function deadline<T, U>(call: () => Promise<T>, ms: number, map: (v: T) => U): Promise<U>;
function deadline<T, U>(call: () => Promise<T>, ms: number, map?: (v: T) => U): Promise<T | U> {
  return new Promise<T | U>((resolve, reject) => {
    let pending: Promise<T>;
    try {
      pending = call();
    } catch (err) {
      reject(asBackendError(err));
      return;
    }
    const timer = setTimeout(() => reject(new AppError(ErrorCode.BACKEND_TIMEOUT, `redis call timed out after ${ms} ms`)), ms);
    pending.then(
      (v) => {
        clearTimeout(timer);
        resolve(map === undefined ? v : map(v));
      },
      (err: unknown) => {
        clearTimeout(timer);
        reject(asBackendError(err));
      },
    );
  });
}
