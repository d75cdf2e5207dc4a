import type { FastifyInstance } from 'fastify';
import { pino } from 'pino';
import { createCacheService } from './cache/cache-service.js';
import type { CacheStore } from './cache/cache-store.js';
import { instrumentStore } from './cache/instrumented-store.js';
import { createMemoryStore } from './cache/stores/memory.js';
import type { Config } from './config/schema.js';
import type { Clock } from './core/clock.js';
import { systemClock } from './core/clock.js';
import type { IdGenerator } from './core/ids.js';
import { randomIds } from './core/ids.js';
import type { Logger } from './core/logger.js';
import { cacheRoutes } from './http/routes/cache.js';
import { metricsRoutes } from './http/routes/metrics.js';
import { statusRoutes } from './http/routes/status.js';
import { createHttpServer } from './http/server.js';
import type { Metrics } from './metrics/metrics.js';
import { noopMetrics } from './metrics/noop.js';
import { createPrometheusMetrics } from './metrics/prometheus.js';

/** Replaceable collaborators, for tests; production uses the defaults. */
export interface AppOverrides {
  readonly logger?: Logger;
  readonly ids?: IdGenerator;
  readonly clock?: Clock;
  readonly metrics?: Metrics;
}

export interface App {
  readonly server: FastifyInstance;
  readonly logger: Logger;
  /** Stops accepting, lets in-flight requests finish, then closes stores. Idempotent. */
  close(): Promise<void>;
}

/** Creates a logger for the config's level; secrets and personal data are redacted by path. */
export const createLogger = (config: Config['logging']): Logger =>
  pino({
    level: config.level,
    redact: {
      paths: ['req.headers.authorization', 'req.headers["x-svc-api-key"]', 'req.headers["x-pbc-api-key"]', 'req.headers.cookie', 'req.remoteAddress', 'password', '*.password'],
      censor: '[redacted]',
    },
  });

/** The composition root: the only place that picks backends and wires modules to routes. */
export const createApp = async (config: Config, overrides: AppOverrides = {}): Promise<App> => {
  const logger = overrides.logger ?? createLogger(config.logging);
  const metrics = overrides.metrics ?? (config.metrics.enabled ? createPrometheusMetrics() : noopMetrics);
  const ids = overrides.ids ?? randomIds;
  void (overrides.clock ?? systemClock);

  const cacheStore = await createCacheStore(config, logger, metrics);
  const cache = createCacheService({
    store: cacheStore,
    ids,
    metrics,
    limits: {
      maxSizeBytes: config.cache.request_limits.max_size_bytes,
      maxNumValues: config.cache.request_limits.max_num_values,
      maxTtlSeconds: config.cache.request_limits.max_ttl_seconds,
      allowSettingKeys: config.cache.request_limits.allow_setting_keys,
      maxKeyLength: config.cache.request_limits.max_key_length,
    },
  });

  let shuttingDown = false;
  const server = createHttpServer({
    logger,
    metrics,
    accessLog: config.logging.access_log,
    slowRequestMs: config.logging.slow_request_ms,
    keepAliveTimeoutMs: config.server.keep_alive_timeout_ms,
  });
  statusRoutes(server, { isShuttingDown: () => shuttingDown });
  if (config.metrics.enabled) metricsRoutes(server, { metrics });
  cacheRoutes(server, { cache, maxBodyBytes: config.cache.request_limits.max_body_bytes });
  await server.ready();

  let closing: Promise<void> | undefined;
  return {
    server,
    logger,
    close: () =>
      (closing ??= (async () => {
        shuttingDown = true;
        await server.close();
        await cacheStore.close();
      })()),
  };
};

/** How long start-up waits for Redis before serving anyway (answering 503 until it connects). */
const REDIS_STARTUP_WAIT_MS = 3000;

const createCacheStore = async (config: Config, logger: Logger, metrics: Metrics): Promise<CacheStore> => {
  const backend = config.cache.backend;
  // The memory store answers in well under a microsecond and cannot fail: timing each call would
  // cost more than the call, so only network stores are instrumented.
  if (backend.type === 'memory') return createMemoryStore({ maxSizeBytes: backend.memory.max_size_bytes });
  // Loaded only when configured: a Redis client library adds MiBs of RSS to a process that does not use it.
  const { createRedisClient, createRedisStore } = await import('./cache/stores/redis.js');
  const log = logger.child({ component: 'cache-redis' });
  const client = createRedisClient({
    url: backend.redis.url,
    clusterNodes: backend.redis.cluster_nodes,
    timeoutMs: backend.redis.timeout_ms,
    logger: log,
  });
  if (!(await client.waitUntilReady(REDIS_STARTUP_WAIT_MS))) {
    log.warn({ waitedMs: REDIS_STARTUP_WAIT_MS }, 'redis is not reachable yet; cache calls answer 503 until it is');
  }
  return instrumentStore(createRedisStore({ client, timeoutMs: backend.redis.timeout_ms, ownsClient: true }), { metrics, logger, name: 'cache' });
};
