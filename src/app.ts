import type { FastifyInstance } from 'fastify';
import { pino } from 'pino';
import { openAnalyticsModules } from './analytics/module-factory.js';
import { BUILTIN_ANALYTICS_MODULES } from './analytics/modules/builtin.js';
import { createAnalyticsRunner } from './analytics/runner.js';
import { createAuctionMetrics } from './auction/auction-metrics.js';
import { createUndiciBidderHttp } from './auction/backends/undici-bidder-http.js';
import { createServerRatesFromConfig } from './auction/backends/server-rates-setup.js';
import { createExchange } from './auction/exchange.js';
import { createOpenRtbAuction } from './auction/openrtb-auction.js';
import { BUILTIN_ADAPTERS } from './bidders/builtin.js';
import { createBidderDiscovery } from './bidders/discovery.js';
import { bidderInfoRoutes } from './http/routes/bidder-info.js';
import { createBidderRegistry } from './bidders/registry.js';
import { OPENBID_VERSION } from './core/version.js';
import { createInProcessBidCache, createInProcessCacheClient } from './cache/backends/in-process-cache-client.js';
import type { BidCacheClient, CacheClient } from './cache/cache-client.js';
import { createCacheService } from './cache/cache-service.js';
import type { InternalCacheLimits } from './cache/cache-service.js';
import { isAppError } from './core/app-error.js';
import { STATUS_BY_CODE } from './http/error-status.js';
import { createAuctionPreparation } from './auction/prepare-auction.js';
import { auctionRoutes } from './http/routes/auction.js';
import { ampRoutes } from './http/routes/amp.js';
import { createAmpService } from './amp/amp-service.js';
import type { KeyValueStore } from './kv/key-value-store.js';
import { instrumentStore } from './kv/instrumented-store.js';
import { createMemoryStore } from './kv/stores/memory.js';
import type { RedisSentinelOptions } from './kv/stores/redis.js';
import { DEFAULT_STORED_IMPS_DIRECTORY } from './config/schema.js';
import type { Config } from './config/schema.js';
import { systemClock } from './core/clock.js';
import type { Clock } from './core/clock.js';
import { randomIds } from './core/ids.js';
import type { IdGenerator } from './core/ids.js';
import type { Logger } from './core/logger.js';
import { createEventService } from './events/event-service.js';
import { cacheRoutes } from './http/routes/cache.js';
import { eventRoutes } from './http/routes/event.js';
import { metricsRoutes } from './http/routes/metrics.js';
import { statusRoutes } from './http/routes/status.js';
import { storageRoutes } from './http/routes/storage.js';
import { vtrackRoutes } from './http/routes/vtrack.js';
import { createHttpServer } from './http/server.js';
import { buildOpenApiDocument } from './http/openapi.js';
import type { OpenApiOptions } from './http/openapi.js';
import { openApiRoutes } from './http/routes/openapi.js';
import { createAdminServer } from './http/admin-server.js';
import type { AdminServer } from './http/admin-server.js';
import { readBuildRevision } from './core/build-revision.js';
import type { Metrics } from './metrics/metrics.js';
import { noopMetrics } from './metrics/noop.js';
import { createPrometheusMetrics } from './metrics/prometheus.js';
import { createClusterWorkerMetrics } from './metrics/cluster-worker.js';
import type { PrimaryChannel } from './metrics/cluster-worker.js';
import { STORAGE_RESERVED_KEYS, createStorageService } from './storage/storage-service.js';
import { createAccountResolver } from './stored/account.js';
import { createStoredDataSources, migrateStoredData } from './stored/backends/stored-data.js';
import { createVtrackService } from './vtrack/vtrack-service.js';
import { createPrivacyFromConfig } from './privacy/backends/privacy-setup.js';
import { setuidRoutes } from './http/routes/setuid.js';
import { optOutRoutes } from './http/routes/optout.js';
import { createOptOut } from './usersync/optout.js';
import type { OptOut } from './usersync/optout.js';
import { createSetuidService } from './usersync/setuid.js';
import { createSetuidMetrics } from './usersync/setuid-metrics.js';
import { cookieSyncRoutes } from './http/routes/cookie-sync.js';
import { createCookieSync } from './usersync/cookie-sync.js';
import { createCookieSyncMetrics } from './usersync/cookie-sync-metrics.js';
import { createSyncerRegistry, syncingBidders } from './usersync/syncers.js';

/** Replaceable collaborators, for tests; production uses the defaults. */
export interface AppOverrides {
  readonly logger?: Logger;
  readonly ids?: IdGenerator;
  readonly clock?: Clock;
  readonly metrics?: Metrics;
  /**
   * Set in a cluster worker (`server.workers` > 1): the IPC channel to the primary, which then
   * answers `/metrics` with the whole group's values (`src/metrics/cluster-worker.ts`).
   */
  readonly clusterPrimary?: PrimaryChannel;
}

export interface App {
  readonly server: FastifyInstance;
  readonly logger: Logger;
  /** What `GET /metrics` serves: `metrics.render()` is the exposition text, cluster-wide in a worker. */
  readonly metrics: Metrics;
  /** The admin listener, not yet listening; absent with `server.admin_port` 0. */
  readonly admin?: AdminServer;
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
  const clusterMetrics =
    overrides.metrics === undefined && config.metrics.enabled && overrides.clusterPrimary !== undefined
      ? createClusterWorkerMetrics(createPrometheusMetrics(), { channel: overrides.clusterPrimary, waitMs: config.metrics.cluster_timeout_ms + CLUSTER_METRICS_MARGIN_MS })
      : undefined;
  const metrics = overrides.metrics ?? clusterMetrics ?? (config.metrics.enabled ? createPrometheusMetrics() : noopMetrics);
  const ids = overrides.ids ?? randomIds;
  const clock = overrides.clock ?? systemClock;

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
      // Storage may share the cache's Redis: the cache keeps out of its keys.
      reservedKeys: STORAGE_RESERVED_KEYS,
    },
  });

  const storageStores = await createStorageStores(config, logger, metrics);
  const storage = createStorageService({ stores: storageStores.stores, metrics });
  if (config.api['api-key'] === '') {
    logger.warn({ path: config.api['storage-path'] }, 'api.api-key is not set: storage writes are refused (401) until it is');
  }

  // Stored requests, imps and accounts: the configured sources in order, behind one cache each.
  const storedData = await createStoredDataSources({
    storedRequests: config.stored_requests,
    storedImps: config.stored_imps,
    accounts: config.accounts,
    logger: logger.child({ component: 'stored-data' }),
    metrics,
    clock,
    impsDirectoryIsDefault: config.stored_imps.filesystem.directory === DEFAULT_STORED_IMPS_DIRECTORY,
  });
  const resolveAccount = createAccountResolver({
    fetcher: storedData.accounts,
    defaults: config.accounts.defaults,
    required: config.accounts.required,
  });
  // The modules the configuration turns on, by their key under `analytics` (modules/builtin.ts).
  const analyticsModules = await openAnalyticsModules(config.analytics, BUILTIN_ANALYTICS_MODULES, { logger, metrics, shutdownTimeoutMs: config.server.shutdown_timeout_ms });
  const analytics = createAnalyticsRunner(analyticsModules, { metrics, logger });
  const events = createEventService({ resolveAccount, analytics, clock, metrics });
  // VAST and bids go to this server's own cache unless auction.cache.url names another.
  const remoteCache = config.auction.cache.url === '' ? undefined : await createRemoteCache(config);
  const cacheClient: CacheClient = remoteCache ?? createInProcessCacheClient(cache);
  const vtrack = createVtrackService({ cache: cacheClient, resolveAccount, externalUrl: config.server.external_url, metrics });
  const bidCache = remoteCache ?? createInProcessBidCache(cache, { limits: auctionCacheLimits(config), url: publicCacheUrl(config) });
  const bidderHttp = createUndiciBidderHttp({ connectionsPerHost: config.auction.max_connections_per_host });
  const auctionMetrics = createAuctionMetrics(metrics);
  // The vendor list and the currency rates may each be fetched at start: both at once.
  const [privacy, serverRates] = await Promise.all([
    createPrivacyFromConfig(config.privacy, { clock, logger: logger.child({ component: 'privacy' }) }),
    createServerRatesFromConfig(config.auction.currency, { clock, metrics, logger: logger.child({ component: 'currency' }) }),
  ]);
  const bidderRegistry = createBidderRegistry(BUILTIN_ADAPTERS, config.adapters, { externalUrl: config.server.external_url, version: OPENBID_VERSION });
  const syncers = createSyncerRegistry(syncingBidders(BUILTIN_ADAPTERS, config.adapters), { externalUrl: config.server.external_url, redirectUrl: config.user_sync.redirect_url });
  const exchange = createExchange({
    registry: bidderRegistry,
    http: bidderHttp,
    cache: bidCache,
    clock,
    metrics: auctionMetrics,
    logger: logger.child({ component: 'auction' }),
    serverRates: serverRates.current,
    report: (record, allow) => analytics.logEvent(record, allow),
    privacy: privacy.enforcer,
    cookieFamilyOf: (code) => syncers.forBidder(code)?.family,
    limits: {
      maxResponseBytes: config.auction.max_response_bytes,
      bidCacheMarginMs: config.auction.bid_cache_margin_ms,
      maxBiddersPerRequest: config.auction.max_bidders_per_request,
      maxBidsPerBidderResponse: config.auction.max_bids_per_bidder_response,
    },
  });
  const preparation = createAuctionPreparation({
    exchange,
    clock,
    ids,
    metrics: auctionMetrics,
    storedRequests: storedData.storedRequests,
    resolveAccount: (id) => resolveAccount(id),
    // A refused auction's record carries no consent or bidder data, so every module may have it.
    report: (record) => analytics.logEvent(record),
    statusOf: (err) => (isAppError(err) ? STATUS_BY_CODE[err.code] : 500),
    limits: {
      defaultTimeoutMs: config.auction.default_timeout_ms,
      maxTimeoutMs: config.auction.max_timeout_ms,
      maxImpsPerRequest: config.auction.max_imps_per_request,
    },
    optOutCookie: config.host_cookie.optout_cookie,
  });
  const openRtbAuction = createOpenRtbAuction({ preparation, clock });
  const amp = createAmpService({
    preparation,
    clock,
    ids,
    loadStoredRequest: async (tagId, accountId) => (await storedData.storedRequests.fetchRequests([tagId], [], accountId === undefined ? {} : { accountId })).requests.get(tagId),
    defaultTimeoutMs: config.auction.default_timeout_ms,
  });

  const hc = config.host_cookie;
  const setuid = createSetuidService({
    familyOf: (name) => (syncers.isKnownFamily(name) ? name : syncers.forBidder(name)?.family),
    defaultFormatOf: (family) => (syncers.byFamily(family)?.defaultType === 'redirect' ? 'i' : 'b'),
    resolveAccount,
    privacy: privacy.userSync,
    cookie: { domain: hc.domain, ttlDays: hc.ttl_days, maxCookieSizeBytes: hc.max_cookie_size_bytes },
    optOutCookie: hc.optout_cookie,
    clock,
    metrics: createSetuidMetrics(metrics),
  });

  let shuttingDown = false;
  const http = createHttpServer({
    logger,
    metrics,
    accessLog: config.logging.access_log,
    slowRequestMs: config.logging.slow_request_ms,
    keepAliveTimeoutMs: config.server.keep_alive_timeout_ms,
    headersTimeoutMs: config.server.headers_timeout_ms,
    requestTimeoutMs: config.server.request_timeout_ms,
    lanes: config.server.lanes,
    trustedProxies: config.server.trusted_proxies,
    ...(config.server.compression.enable_gzip ? { compression: { minBytes: config.server.compression.min_bytes } } : {}),
  });
  const server = http.fastify;
  statusRoutes(http, { isShuttingDown: () => shuttingDown });
  if (config.metrics.enabled && config.server.metrics_on_public_port) metricsRoutes(server, { metrics });
  cacheRoutes(http, { cache, maxBodyBytes: config.cache.request_limits.max_body_bytes });
  eventRoutes(http, { events });
  vtrackRoutes(http, { vtrack, maxBodyBytes: config.cache.request_limits.max_body_bytes });
  auctionRoutes(http, { auction: openRtbAuction, maxBodyBytes: config.auction.max_request_bytes });
  ampRoutes(http, { amp });
  bidderInfoRoutes(http, { discovery: createBidderDiscovery(BUILTIN_ADAPTERS, config.adapters) });
  setuidRoutes(http, { setuid, optOutCookie: hc.optout_cookie });
  optOutRoutes(http, { optOut: await createOptOutFromConfig(config, clock) });
  cookieSyncRoutes(http, {
    cookieSync: createCookieSync({
      registry: syncers,
      bidder: (code) => bidderRegistry.get(code) ?? bidderRegistry.get(code.toLowerCase()),
      resolveAccount: (id) => resolveAccount(id),
      privacy: privacy.sync,
      metrics: createCookieSyncMetrics(metrics),
      optOutCookie: config.host_cookie.optout_cookie,
      clock,
      random: Math.random,
      host: {
        coopSyncDefault: config.user_sync.coop_sync.default,
        priorityGroups: config.user_sync.priority_groups,
        gdprDefault: config.privacy.gdpr.default_value,
        vendorListWaitMs: config.privacy.gdpr.vendor_list.fetch_timeout_ms,
      },
    }),
  });
  storageRoutes(http, {
    storage,
    path: config.api['storage-path'],
    apiKey: config.api['api-key'],
    readPublic: config.api['storage-read-public'],
    limits: {
      defaultTtlSeconds: config.storage.default_ttl_seconds,
      maxTtlSeconds: config.storage.max_ttl_seconds,
      maxValueBytes: config.storage.max_value_bytes,
      maxKeyLength: config.storage.max_key_length,
    },
  });
  openApiRoutes(http, { document: buildOpenApiDocument(openApiOptions(config)) });
  await server.ready();
  const admin =
    config.server.admin_port === 0
      ? undefined
      : createAdminServer({
          ...(config.metrics.enabled ? { metrics } : {}),
          currencyRates: () => serverRates.info(),
          version: OPENBID_VERSION,
          // dist/build-info.json, beside the built app.js (npm run build writes it).
          revision: readBuildRevision(new URL('./build-info.json', import.meta.url)),
          keepAliveTimeoutMs: config.server.keep_alive_timeout_ms,
          headersTimeoutMs: config.server.headers_timeout_ms,
          requestTimeoutMs: config.server.request_timeout_ms,
          logger,
        });

  let closing: Promise<void> | undefined;
  return {
    server,
    logger,
    metrics,
    ...(admin === undefined ? {} : { admin }),
    close: () =>
      (closing ??= (async () => {
        shuttingDown = true;
        // In order: finish in-flight requests (their events reach analytics), write out what
        // analytics holds, then release the stores.
        await Promise.all([server.close(), admin?.close()]);
        await analytics.close();
        await Promise.all([cacheStore.close(), storageStores.close(), remoteCache?.close(), bidderHttp.close(), storedData.close(), privacy.close(), serverRates.close()]);
        clusterMetrics?.close();
      })()),
  };
};

/** What the OpenAPI document shows of a configuration (`npm run openapi` writes the defaults'). */
export const openApiOptions = (config: Config): OpenApiOptions => ({
  storagePath: config.api['storage-path'],
  metrics: config.metrics.enabled && config.server.metrics_on_public_port,
  version: OPENBID_VERSION,
});

/** `openbid db migrate`: the Postgres schema of stored data; the versions applied. */
export const migrateDatabase = (config: Config, logger: Logger): Promise<number[]> => migrateStoredData(config.stored_requests.postgres, logger);

/** How much longer a worker waits for the primary's metrics than the primary waits for workers. */
const CLUSTER_METRICS_MARGIN_MS = 500;

/** How long start-up waits for Redis before serving anyway (answering 503 until it connects). */
const REDIS_STARTUP_WAIT_MS = 3000;

/** Sentinel mode when the section lists sentinels (the config checks refused it beside another mode). */
const sentinelOptions = (sentinel: Config['cache']['backend']['redis']['sentinel']): { sentinel?: RedisSentinelOptions } =>
  sentinel.nodes.length === 0
    ? {}
    : {
        sentinel: {
          masterName: sentinel.master_name,
          nodes: sentinel.nodes,
          ...(sentinel.password ? { password: sentinel.password } : {}),
          ...(sentinel.sentinel_password ? { sentinelPassword: sentinel.sentinel_password } : {}),
        },
      };

const createCacheStore = async (config: Config, logger: Logger, metrics: Metrics): Promise<KeyValueStore> => {
  const backend = config.cache.backend;
  // The memory store answers in well under a microsecond and cannot fail: timing each call would
  // cost more than the call, so only network stores are instrumented.
  if (backend.type === 'memory') return createMemoryStore({ maxSizeBytes: backend.memory.max_size_bytes });
  // Loaded only when configured: a Redis client library adds MiBs of RSS to a process that does not use it.
  const { createRedisClient, createRedisStore } = await import('./kv/stores/redis.js');
  const log = logger.child({ component: 'cache-redis' });
  const client = createRedisClient({
    url: backend.redis.url,
    clusterNodes: backend.redis.cluster_nodes,
    ...sentinelOptions(backend.redis.sentinel),
    timeoutMs: backend.redis.timeout_ms,
    logger: log,
  });
  if (!(await client.waitUntilReady(REDIS_STARTUP_WAIT_MS))) {
    log.warn({ waitedMs: REDIS_STARTUP_WAIT_MS }, 'redis is not reachable yet; cache calls answer 503 until it is');
  }
  return instrumentStore(createRedisStore({ client, timeoutMs: backend.redis.timeout_ms, ownsClient: true }), { metrics, logger, name: 'cache' });
};

/**
 * One store per storage application: memory applications get a memory store of their own; Redis
 * applications naming the same host, port and password share one connection (each keeps its own
 * key namespace inside the storage service).
 */
const createStorageStores = async (config: Config, logger: Logger, metrics: Metrics): Promise<{ stores: Map<string, KeyValueStore>; close: () => Promise<void> }> => {
  const stores = new Map<string, KeyValueStore>();
  for (const [name, app] of Object.entries(config.storage.memory)) stores.set(name, createMemoryStore({ maxSizeBytes: app.max_size_bytes }));
  const redisApps = Object.entries(config.storage.redis);
  const clients: { close(): Promise<void> }[] = [];
  if (redisApps.length > 0) {
    const { createRedisClient, createRedisStore } = await import('./kv/stores/redis.js');
    const shared = new Map<string, ReturnType<typeof createRedisClient>>();
    for (const [name, app] of redisApps) {
      const sentinel = sentinelOptions(app.sentinel);
      const server = sentinel.sentinel ? `sentinel:${app.sentinel.master_name}:${app.sentinel.nodes.join(',')}:${app.sentinel.password}` : `${app.host}:${app.port}:${app.password}`;
      let client = shared.get(server);
      if (client === undefined) {
        client = createRedisClient({
          host: app.host,
          port: app.port,
          ...(app.password ? { password: app.password } : {}),
          ...sentinel,
          timeoutMs: app.timeout_ms,
          logger: logger.child({ component: 'storage-redis', server: sentinel.sentinel ? `sentinel:${app.sentinel.master_name}` : `${app.host}:${app.port}` }),
        });
        shared.set(server, client);
        clients.push(client);
      }
      stores.set(name, instrumentStore(createRedisStore({ client, timeoutMs: app.timeout_ms, ownsClient: false }), { metrics, logger, name: `storage-${name}` }));
    }
    const ready = await Promise.all([...shared.values()].map((c) => c.waitUntilReady(REDIS_STARTUP_WAIT_MS)));
    if (ready.includes(false)) logger.warn({ waitedMs: REDIS_STARTUP_WAIT_MS }, 'a storage redis is not reachable yet; its applications answer 503 until it is');
  }
  return {
    stores,
    close: async () => {
      await Promise.all([...stores.values()].map((s) => s.close()));
      await Promise.all(clients.map((c) => c.close()));
    },
  };
};

/** The client of another server's cache, loaded only when `auction.cache.url` names one (see createCacheStore). */
const createRemoteCache = async (config: Config): Promise<CacheClient & BidCacheClient & { close(): Promise<void> }> => {
  const { createRemoteCacheClient } = await import('./cache/backends/remote-cache-client.js');
  return createRemoteCacheClient({ url: config.auction.cache.url, timeoutMs: config.auction.cache.timeout_ms, publicUrl: publicCacheUrl(config) });
};

/** Where browsers read cached bids: `auction.cache.public_url`, else the remote cache, else this server's `/cache`. */
const publicCacheUrl = (config: Config): string =>
  config.auction.cache.public_url || config.auction.cache.url || `${config.server.external_url.replace(/\/+$/, '')}/cache`;

const auctionCacheLimits = (config: Config): InternalCacheLimits => ({
  maxNumValues: config.auction.cache.max_puts,
  maxSizeBytes: config.auction.cache.max_value_bytes,
  maxTtlSeconds: config.cache.request_limits.max_ttl_seconds,
});

/** `/optout`: the cookie settings, the host's pages, and a reCAPTCHA check when a secret is configured (its client loaded only then). */
const createOptOutFromConfig = async (config: Config, clock: Clock): Promise<OptOut> => {
  const hc = config.host_cookie;
  const captcha = config.user_sync.recaptcha;
  const verifyCaptcha =
    captcha.secret === ''
      ? undefined
      : (await import('./usersync/backends/recaptcha.js')).createRecaptchaVerifier({ secret: captcha.secret, verifyUrl: captcha.verify_url, timeoutMs: captcha.timeout_ms });
  return createOptOut({
    cookie: { domain: hc.domain, ttlDays: hc.ttl_days, maxCookieSizeBytes: hc.max_cookie_size_bytes },
    optOutCookie: hc.optout_cookie,
    clock,
    optOutUrl: hc.opt_out_url,
    optInUrl: hc.opt_in_url,
    ownOrigin: new URL(config.server.external_url).origin,
    ...(verifyCaptcha !== undefined ? { verifyCaptcha } : {}),
  });
};
