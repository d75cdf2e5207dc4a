import Type from 'typebox';
import type { Static } from 'typebox';
import { AccountDefaultsSchema, AccountSettingsSchema, AllowActivitiesSchema } from '../stored/account-schema.js';

// Every section and key has a default, so an empty file (or none) is a complete, valid config.
// `additionalProperties: false` everywhere: a typo in a key is an error, not a silent default.
const strict = { additionalProperties: false, default: {} } as const;

const ServerSchema = Type.Object(
  {
    host: Type.String({ default: '0.0.0.0' }),
    port: Type.Integer({ minimum: 0, maximum: 65535, default: 8000 }),
    /** Public base URL of this server: event URLs put into VAST point here. */
    external_url: Type.String({ default: 'http://localhost:8000' }),
    /** Number of node:cluster worker processes; 1 runs in the main process. */
    workers: Type.Integer({ minimum: 1, maximum: 256, default: 1 }),
    /** After SIGTERM, in-flight requests get this long to finish before the process exits anyway. */
    shutdown_timeout_ms: Type.Integer({ minimum: 0, default: 10000 }),
    /** Keep-alive connections idle this long are closed by the server. */
    keep_alive_timeout_ms: Type.Integer({ minimum: 0, default: 72000 }),
    /** A request head not whole this long after its first byte gets 408 and the connection closes (node:http's headersTimeout); 0: no limit. */
    headers_timeout_ms: Type.Integer({ minimum: 0, default: 60000 }),
    /** A request not whole, body included, this long after its first byte gets 408 (node:http's requestTimeout); 0: no limit. */
    request_timeout_ms: Type.Integer({ minimum: 0, default: 300000 }),
    /** Paths ahead of Fastify for the hottest routes (docs/http-lanes.md): all, node (node:http's request objects only), off. */
    lanes: Type.Enum(['all', 'node', 'off'], { default: 'all' }),
    /** Proxies whose X-Forwarded-For names the client: addresses, CIDR ranges, loopback, linklocal, uniquelocal. */
    trusted_proxies: Type.Array(Type.String(), { default: [] }),
    /** Port of the admin listener (`/metrics`, `/currency/rates`, `/version`; docs/operations.md); 0: no admin listener. 6060 as Prebid Server's. */
    admin_port: Type.Integer({ minimum: 0, maximum: 65535, default: 6060 }),
    /** Address of the admin listener: loopback unless set, so it is never public by accident. */
    admin_host: Type.String({ default: '127.0.0.1' }),
    /** Whether the public port serves `GET /metrics` too (the admin listener always does); off, as Prebid Server never serves metrics publicly. */
    metrics_on_public_port: Type.Boolean({ default: false }),
    /** Gzip for `/cookie_sync`, `/openrtb2/auction`, `/openrtb2/amp` and `/getuids` answers, when the client accepts it (docs/configuration.md). */
    compression: Type.Object(
      {
        /** Prebid Server's `compression.response.enable_gzip`, on by default here. */
        enable_gzip: Type.Boolean({ default: true }),
        /** Shorter answers go uncompressed: one TCP segment either way, and gzip's fixed cost buys nothing. */
        min_bytes: Type.Integer({ minimum: 0, default: 1400 }),
      },
      strict,
    ),
  },
  strict,
);

const LoggingSchema = Type.Object(
  {
    level: Type.Enum(['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent'], { default: 'info' }),
    /** One info line per request. Off by default: the hot path logs only errors, warnings, slow requests. */
    access_log: Type.Boolean({ default: false }),
    /** Requests slower than this are logged as warnings; 0 turns that off. */
    slow_request_ms: Type.Integer({ minimum: 0, default: 1000 }),
  },
  strict,
);

/**
 * Redis Sentinel: the sentinels say which server is the master, and the store follows it through
 * a failover. Non-empty `nodes` means Sentinel mode (then neither `url` nor `cluster_nodes` may be set).
 */
const RedisSentinelSchema = Type.Object(
  {
    /** The master's name as the sentinels monitor it (`sentinel monitor <name> …`). */
    master_name: Type.String({ default: '' }),
    /** `host:port` of the sentinels, asked in turn. */
    nodes: Type.Array(Type.String(), { default: [] }),
    /** Password of the master and its replicas (their `requirepass`); empty: none. */
    password: Type.String({ default: '' }),
    /** Password of the sentinels themselves (their own `requirepass`); empty: none. */
    sentinel_password: Type.String({ default: '' }),
  },
  strict,
);

const RedisBackendSchema = Type.Object(
  {
    url: Type.String({ default: 'redis://127.0.0.1:6379' }),
    /** `host:port` seeds of a Redis Cluster; when non-empty, `url` supplies only credentials and TLS. */
    cluster_nodes: Type.Array(Type.String(), { default: [] }),
    sentinel: RedisSentinelSchema,
    /** Each Redis call fails after this long, so a stuck Redis never hangs a request. */
    timeout_ms: Type.Integer({ minimum: 1, default: 100 }),
  },
  strict,
);

const CacheSchema = Type.Object(
  {
    backend: Type.Object(
      {
        type: Type.Enum(['memory', 'redis'], { default: 'memory' }),
        memory: Type.Object({ max_size_bytes: Type.Integer({ minimum: 1024, default: 268435456 }) }, strict),
        redis: RedisBackendSchema,
      },
      strict,
    ),
    request_limits: Type.Object(
      {
        /** Largest single value, in bytes as stored (XML text, or the JSON text as posted). */
        max_size_bytes: Type.Integer({ minimum: 1, default: 10240 }),
        /** Most puts in one request. */
        max_num_values: Type.Integer({ minimum: 1, default: 10 }),
        /** TTL cap; a put with no TTL (or 0) gets this. */
        max_ttl_seconds: Type.Integer({ minimum: 1, default: 3600 }),
        /** Honour a put's `key`; when false, keys are ignored and ids generated. */
        allow_setting_keys: Type.Boolean({ default: false }),
        /** Longest `key` accepted when keys are honoured. */
        max_key_length: Type.Integer({ minimum: 1, maximum: 4096, default: 256 }),
        /** Largest request body of `POST /cache`; larger bodies get 413. */
        max_body_bytes: Type.Integer({ minimum: 1024, default: 1048576 }),
      },
      strict,
    ),
  },
  strict,
);

const MetricsSchema = Type.Object(
  {
    enabled: Type.Boolean({ default: true }),
    /** With `server.workers` > 1: how long a scrape waits for each worker's metrics before leaving it out. */
    cluster_timeout_ms: Type.Integer({ minimum: 10, maximum: 10000, default: 1000 }),
  },
  strict,
);

const AuctionSchema = Type.Object(
  {
    /** `tmax` of a request that sets none (and of AMP requests, as their upper bound). */
    default_timeout_ms: Type.Integer({ minimum: 1, default: 1000 }),
    /** A request's `tmax` is capped to this. */
    max_timeout_ms: Type.Integer({ minimum: 1, default: 5000 }),
    /** Time kept back from the bidders' budget to cache the bids before `tmax` runs out. */
    bid_cache_margin_ms: Type.Integer({ minimum: 0, default: 40 }),
    /** A bidder answer larger than this (after decompression) is refused (code 3). */
    max_response_bytes: Type.Integer({ minimum: 1024, default: 2097152 }),
    /** Largest `POST /openrtb2/auction` body; larger gets 413. */
    max_request_bytes: Type.Integer({ minimum: 1024, default: 524288 }),
    /** Open connections per bidder host (keep-alive). */
    max_connections_per_host: Type.Integer({ minimum: 1, default: 128 }),
    /** Imps one auction may hold (stored data merged); more is a 400. Real pages send 1–20. */
    max_imps_per_request: Type.Integer({ minimum: 1, default: 256 }),
    /** Bidders one auction calls at most (aliases count as bidders); the rest are named in a warning and not called. */
    max_bidders_per_request: Type.Integer({ minimum: 1, default: 64 }),
    /**
     * Bids read from one bidder in one auction (all its calls together); the rest of its answer is
     * dropped with an error. 1,000 is four per imp at `max_imps_per_request`'s default.
     */
    max_bids_per_bidder_response: Type.Integer({ minimum: 1, default: 1000 }),
    cache: Type.Object(
      {
        /** A Prebid-Cache-compatible `/cache` URL for VAST and bids; empty uses this server's own cache. */
        url: Type.String({ default: '' }),
        timeout_ms: Type.Integer({ minimum: 1, default: 500 }),
        /**
         * The cache URL browsers and creatives read bids from (`hb_cache_host`, `hb_cache_path`);
         * empty means `server.external_url` + `/cache` (or `url` when a remote cache is set).
         */
        public_url: Type.String({ default: '' }),
        /** Most puts one auction may write (every bid of every imp; `/cache`'s limits do not apply). */
        max_puts: Type.Integer({ minimum: 1, default: 500 }),
        /** Largest single cached bid or VAST, in bytes. */
        max_value_bytes: Type.Integer({ minimum: 1, default: 262144 }),
      },
      strict,
    ),
    /** The server's currency rates (docs/currency.md): a file or a URL in Prebid's currency file format; neither: none. */
    currency: Type.Object(
      {
        /** A rates file, read at start and every `refresh_interval_ms`. */
        file: Type.String({ default: '' }),
        /** A rates URL, e.g. https://cdn.jsdelivr.net/gh/prebid/currency-file@1/latest.json, fetched at start and every `refresh_interval_ms`. */
        url: Type.String({ default: '', pattern: '^(https?://.+)?$' }),
        refresh_interval_ms: Type.Integer({ minimum: 1000, default: 1800000 }),
        /** Each read of the file or URL gives up after this long (a failed read; the last good rates stay). */
        fetch_timeout_ms: Type.Integer({ minimum: 1, default: 5000 }),
        /** Rates with no successful read for this long are dropped; 0: never. */
        stale_after_ms: Type.Integer({ minimum: 0, default: 86400000 }),
      },
      strict,
    ),
  },
  strict,
);

/**
 * Bidders this server calls, by bidder code. A code naming a built-in adapter (appnexus, pubmatic,
 * openx) needs no `adapter`; any other code must name one (`generic` with an endpoint for a plain
 * OpenRTB bidder), or the start stops.
 */
/** One user sync endpoint of a bidder (Prebid Server's `usersync.iframe` / `usersync.redirect`). */
const SyncEndpointSchema = Type.Object(
  {
    /** The bidder's sync URL, with `{{.RedirectURL}}` and the privacy macros (see docs/user-sync.md). */
    url: Type.String({ minLength: 1 }),
    /** The bidder's placeholder for its user id, put in the redirect URL's `uid`. */
    user_macro: Type.String({ default: '' }),
    /** Replaces `user_sync.redirect_url` for this endpoint. */
    redirect_url: Type.Optional(Type.String()),
  },
  { additionalProperties: false },
);
const AdapterEntrySchema = Type.Object(
  {
    /** The built-in adapter to run; defaults to the bidder code itself. */
    adapter: Type.Optional(Type.String()),
    /** Overrides the adapter's default endpoint (required for `generic`). */
    endpoint: Type.String({ default: '' }),
    enabled: Type.Boolean({ default: true }),
    /** IAB GVL vendor id, for GDPR enforcement of a `generic` bidder. */
    gvl_vendor_id: Type.Optional(Type.Integer({ minimum: 1 })),
    /** Free text the bidder's adapter reads (Prebid Server's `extra_info`; Media.net's is its endpoint). */
    extra_info: Type.Optional(Type.String({ maxLength: 4096 })),
    /** Host credentials of the bidder (Prebid Server's `xapi`: Rubicon's user, password and tracker); unset: none sent. */
    xapi: Type.Optional(
      Type.Object(
        {
          username: Type.String({ default: '' }),
          password: Type.String({ default: '' }),
          tracker: Type.String({ default: '' }),
        },
        { additionalProperties: false },
      ),
    ),
    /** The bidder's user sync: sets or replaces, field by field, the built-in adapter's (how a generic bidder gets one). */
    usersync: Type.Optional(
      Type.Object(
        {
          /** The `uids` cookie family its ids are kept under; default: the built-in's, else the bidder code. */
          cookie_family: Type.Optional(Type.String({ minLength: 1, maxLength: 64 })),
          redirect: Type.Optional(SyncEndpointSchema),
          iframe: Type.Optional(SyncEndpointSchema),
          /** Its sync URLs answer CORS requests (`supportCORS` in `/cookie_sync` answers). */
          support_cors: Type.Optional(Type.Boolean()),
        },
        { additionalProperties: false },
      ),
    ),
  },
  { additionalProperties: false },
);
const AdaptersSchema = Type.Record(Type.String(), AdapterEntrySchema, { default: {} });

/**
 * An account's settings: one schema (src/stored/account-schema.ts) for every source.
 * `accounts.defaults` has every key (with defaults); an entry of `accounts.by_id` may set any
 * subset, deep-merged over the defaults.
 */
const AccountsSchema = Type.Object(
  {
    /** Refuse requests naming an account that is not configured. */
    required: Type.Boolean({ default: false }),
    defaults: AccountDefaultsSchema,
    by_id: Type.Record(Type.String(), AccountSettingsSchema, { default: {} }),
    /** `<directory>/<account_id>.json`, one file per account; empty turns files off. */
    filesystem: Type.Object({ directory: Type.String({ default: '' }) }, strict),
    /** Accounts from the `accounts` table of `stored_requests.postgres`. */
    postgres: Type.Object({ enabled: Type.Boolean({ default: false }) }, strict),
    /** `GET <endpoint>?account-ids=["id"]` as Prebid Server's HTTP fetcher; empty turns it off. */
    http: Type.Object({ endpoint: Type.String({ default: '', pattern: '^(https?://.+)?$' }), timeout_ms: Type.Integer({ minimum: 1, default: 500 }) }, strict),
  },
  strict,
);

/**
 * Stored requests (`ext.prebid.storedrequest.id`, AMP's `tag_id`), from the sources in `order`
 * that are configured, behind an in-memory cache. Stored imps and accounts use the same Postgres
 * database, order and cache settings.
 */
const StoredRequestsSchema = Type.Object(
  {
    /** `<directory>/<id>.json`, one file per stored request; empty turns files off. */
    filesystem: Type.Object({ directory: Type.String({ default: './stored_requests' }) }, strict),
    postgres: Type.Object(
      {
        /** `postgres://user:password@host:port/database`; empty turns Postgres off. */
        connection_string: Type.String({ default: '', pattern: '^(postgres(ql)?://.+)?$' }),
        pool_size: Type.Integer({ minimum: 1, maximum: 1000, default: 10 }),
        /** A lookup (waiting for a connection included) fails as a timeout after this long. */
        timeout_ms: Type.Integer({ minimum: 1, default: 200 }),
        /**
         * Listen (one dedicated connection per process) for the notifications the trigger of
         * `openbid db migrate` sends when a stored request, imp or account row changes, and drop
         * those ids from the cache at once, rather than serve them until `cache.ttl_seconds` runs out.
         */
        change_notifications: Type.Boolean({ default: true }),
        /**
         * How often the change log the same trigger writes is read, as a safety net for
         * notifications missed (or turned off); 0 reads it never.
         */
        change_poll_interval_seconds: Type.Integer({ minimum: 0, default: 30 }),
      },
      strict,
    ),
    /** `GET <endpoint>?request-ids=[..]&imp-ids=[..]` as Prebid Server's HTTP fetcher; empty turns it off. */
    http: Type.Object({ endpoint: Type.String({ default: '', pattern: '^(https?://.+)?$' }), timeout_ms: Type.Integer({ minimum: 1, default: 500 }) }, strict),
    /** Sources asked in this order for ids the cache does not hold; the first that has an id answers. */
    order: Type.Array(Type.Enum(['filesystem', 'postgres', 'http']), { default: ['filesystem', 'postgres', 'http'], uniqueItems: true }),
    cache: Type.Object(
      {
        /** How long a found stored request, imp or account is served from memory. */
        ttl_seconds: Type.Integer({ minimum: 0, default: 300 }),
        /** How long an id that no source has is remembered as missing (0: not remembered). */
        miss_ttl_seconds: Type.Integer({ minimum: 0, default: 10 }),
        max_entries: Type.Integer({ minimum: 1, default: 10000 }),
        /**
         * Most bytes (ids and values, counted as UTF-16) each of the found and missing memories
         * holds, for stored data and for accounts alike; the least recently used go first. Ids
         * come from requests, so the entry count alone does not bound the memory.
         */
        max_bytes: Type.Integer({ minimum: 1024, default: 64 * 1024 * 1024 }),
      },
      strict,
    ),
    /**
     * Longest stored request, stored imp, account or AMP `tag_id` id, in characters: a longer one
     * is refused (400) before any cache or source is asked. No real id comes near the default.
     */
    max_id_length: Type.Integer({ minimum: 1, default: 256 }),
  },
  strict,
);

/** The default stored imps folder, which a default install does not have (its absence is not warned). */
export const DEFAULT_STORED_IMPS_DIRECTORY = './stored_imps';

const StoredImpsSchema = Type.Object(
  {
    /** `<directory>/<id>.json`, one file per stored imp; empty turns files off. */
    filesystem: Type.Object({ directory: Type.String({ default: DEFAULT_STORED_IMPS_DIRECTORY }) }, strict),
  },
  strict,
);

const AnalyticsSchema = Type.Object(
  {
    file: Type.Object(
      {
        /** JSON lines are appended here; empty turns the module off. */
        path: Type.String({ default: '' }),
        flush_interval_ms: Type.Integer({ minimum: 10, default: 1000 }),
        /** Records waiting beyond this are dropped (and counted) while the disk does not keep up. */
        max_buffer_bytes: Type.Integer({ minimum: 1024, default: 16777216 }),
      },
      strict,
    ),
    http: Type.Object(
      {
        /** Batches are POSTed here as a JSON array; empty turns the module off. */
        endpoint: Type.String({ default: '' }),
        batch_size: Type.Integer({ minimum: 1, default: 100 }),
        flush_interval_ms: Type.Integer({ minimum: 10, default: 1000 }),
        /** Records waiting beyond this are dropped (and counted). */
        max_queue_size: Type.Integer({ minimum: 1, default: 10000 }),
        timeout_ms: Type.Integer({ minimum: 1, default: 5000 }),
        max_retries: Type.Integer({ minimum: 0, default: 5 }),
        /** First retry delay; each retry doubles it (with jitter), up to 30 s. */
        retry_backoff_ms: Type.Integer({ minimum: 1, default: 200 }),
      },
      strict,
    ),
    log: Type.Object({ enabled: Type.Boolean({ default: false }) }, strict),
  },
  strict,
);

// Prebid Cache's own key names (with hyphens) are kept for this section, as the interface gives them.
const ApiSchema = Type.Object(
  {
    /** Path of the storage endpoints (POST writes, GET reads). */
    'storage-path': Type.String({ default: '/storage' }),
    /** The key storage writes (and, unless reads are public, reads) must send in `x-svc-api-key`. Empty refuses every write. */
    'api-key': Type.String({ default: '' }),
    /** Let storage reads through without the API key. */
    'storage-read-public': Type.Boolean({ default: false }),
  },
  strict,
);

const MemoryApplicationSchema = Type.Object(
  { max_size_bytes: Type.Integer({ minimum: 1024, default: 67108864 }) },
  { additionalProperties: false },
);

const RedisApplicationSchema = Type.Object(
  {
    host: Type.String({ default: '127.0.0.1' }),
    port: Type.Integer({ minimum: 1, maximum: 65535, default: 6379 }),
    password: Type.String({ default: '' }),
    timeout_ms: Type.Integer({ minimum: 1, default: 100 }),
    /** Instead of `host` and `port`: the master the sentinels name (same shape as the cache's). */
    sentinel: RedisSentinelSchema,
  },
  { additionalProperties: false },
);

const StorageSchema = Type.Object(
  {
    default_ttl_seconds: Type.Integer({ minimum: 1, default: 300 }),
    /** Upper bound of a stored entry's lifetime. */
    max_ttl_seconds: Type.Integer({ minimum: 1, default: 31536000 }),
    /** Largest `value`, in UTF-8 bytes. */
    max_value_bytes: Type.Integer({ minimum: 1, default: 1048576 }),
    max_key_length: Type.Integer({ minimum: 1, maximum: 65536, default: 1024 }),
    /** Applications kept in this process, each in a store of its own. */
    memory: Type.Record(Type.String(), MemoryApplicationSchema, { default: {} }),
    /** Applications kept in Redis; applications naming the same server share one connection. */
    redis: Type.Record(Type.String(), RedisApplicationSchema, { default: {} }),
  },
  strict,
);

/** `privacy.*.channel_enabled`: per channel; a channel left out follows the section's switch. */
const ChannelSwitchesSchema = Type.Object(
  { amp: Type.Optional(Type.Boolean()), web: Type.Optional(Type.Boolean()), app: Type.Optional(Type.Boolean()), dooh: Type.Optional(Type.Boolean()) },
  strict,
);

/**
 * Privacy enforcement (src/privacy, docs/privacy.md): GDPR (TCF v2), US privacy and GPC, LMT,
 * IP masking and activity controls, as Prebid Server names them. Accounts override them under
 * their own `privacy`.
 */
const PrivacySchema = Type.Object(
  {
    gdpr: Type.Object(
      {
        /** Off: GDPR is never enforced. */
        enabled: Type.Boolean({ default: true }),
        channel_enabled: ChannelSwitchesSchema,
        /** This server's own IAB GVL vendor id: `/setuid` writes the cookie only with purpose 1 consent for it; 0: none. */
        host_vendor_id: Type.Integer({ minimum: 0, default: 0 }),
        /** Whether GDPR applies when a request does not say (regs.gdpr, GPP sections). */
        default_value: Type.Union([Type.Literal(0), Type.Literal(1)], { default: 0 }),
        /** `full` reads the vendor list; `basic` reads the consent string only. */
        enforce_algo: Type.Enum(['full', 'basic'], { default: 'full' }),
        /** Bidder codes whose purposes and special feature 1 are not enforced. */
        vendor_exceptions: Type.Array(Type.String(), { default: [] }),
        vendor_list: Type.Object(
          {
            /** The latest Global Vendor List, fetched at start and refreshed; empty: none. */
            url: Type.String({ default: '', pattern: '^(https?://.+)?$' }),
            /** A version's URL, `{version}` standing for its number, fetched when a consent names it; empty: none. */
            archive_url: Type.String({ default: '', pattern: '^(https?://.+)?$' }),
            /** A vendor list file read at start. */
            file: Type.String({ default: '' }),
            refresh_interval_ms: Type.Integer({ minimum: 1000, default: 3600000 }),
            fetch_timeout_ms: Type.Integer({ minimum: 1, default: 2000 }),
            /** A version that could not be fetched is not asked for again before this long. */
            retry_after_ms: Type.Integer({ minimum: 0, default: 600000 }),
          },
          strict,
        ),
      },
      strict,
    ),
    ccpa: Type.Object({ enforce: Type.Boolean({ default: true }), channel_enabled: ChannelSwitchesSchema }, strict),
    lmt: Type.Object({ enforce: Type.Boolean({ default: true }) }, strict),
    ipv4: Type.Object({ anon_keep_bits: Type.Integer({ minimum: 0, maximum: 32, default: 24 }) }, strict),
    ipv6: Type.Object({ anon_keep_bits: Type.Integer({ minimum: 0, maximum: 128, default: 56 }) }, strict),
    /** Activity controls: `{<activity>: {default, rules: [{condition, allow}]}}`. */
    allowactivities: Type.Object(AllowActivitiesSchema.properties, { additionalProperties: false, default: {} }),
    /** The longest TCF or GPP consent string decoded, in characters; a longer one is invalid (docs/privacy.md). */
    max_consent_length: Type.Integer({ minimum: 256, maximum: 1048576, default: 16384 }),
  },
  strict,
);

/** The `uids` cookie this server keeps its users' synced ids in (Prebid Server's `host_cookie`). */
const HostCookieSchema = Type.Object(
  {
    /** `Domain` of the cookie; empty: the host that set it only. */
    domain: Type.String({ default: '' }),
    /** Lifetime of the cookie (each id in it counts as live for 14 days after its sync). */
    ttl_days: Type.Integer({ minimum: 1, maximum: 3650, default: 90 }),
    /** The whole Set-Cookie value stays within this many bytes, the ids that expire first dropped; 0: no limit. */
    max_cookie_size_bytes: Type.Integer({ minimum: 0, default: 0 }),
    /** The host's own opt-out cookie (Prebid Server's `optout_cookie`): a user carrying `name=value` is opted out of syncs and ids; empty name: none. */
    optout_cookie: Type.Object({ name: Type.String({ default: '' }), value: Type.String({ default: '' }) }, strict),
    /** Where `/optout` sends the user after opting out / back in; empty: a short text answer. */
    opt_out_url: Type.String({ default: '' }),
    opt_in_url: Type.String({ default: '' }),
  },
  strict,
);

/** User ID sync (`/cookie_sync`, `/setuid`). */
const UserSyncSchema = Type.Object(
  {
    /** Where bidders send users back with their id; empty: `server.external_url` + `/setuid?…`. */
    redirect_url: Type.String({ default: '' }),
    /** Bidder codes in groups, highest priority first: `/cookie_sync` offers them first, and a full cookie drops them last. */
    priority_groups: Type.Array(Type.Array(Type.String()), { default: [] }),
    coop_sync: Type.Object({ /** Sync bidders the page did not ask for, when a request does not say. */ default: Type.Boolean({ default: false }) }, strict),
    /** A reCAPTCHA `/optout` requires, as Prebid Server does; an empty secret: none (opting back in then only from this server's own pages). */
    recaptcha: Type.Object(
      {
        secret: Type.String({ default: '' }),
        verify_url: Type.String({ default: 'https://www.google.com/recaptcha/api/siteverify', pattern: '^https?://.+$' }),
        timeout_ms: Type.Integer({ minimum: 1, default: 2000 }),
      },
      strict,
    ),
  },
  strict,
);

export const ConfigSchema = Type.Object(
  {
    server: ServerSchema,
    logging: LoggingSchema,
    cache: CacheSchema,
    api: ApiSchema,
    storage: StorageSchema,
    accounts: AccountsSchema,
    stored_requests: StoredRequestsSchema,
    stored_imps: StoredImpsSchema,
    analytics: AnalyticsSchema,
    auction: AuctionSchema,
    adapters: AdaptersSchema,
    metrics: MetricsSchema,
    privacy: PrivacySchema,
    host_cookie: HostCookieSchema,
    user_sync: UserSyncSchema,
  },
  { additionalProperties: false },
);

export type Config = Static<typeof ConfigSchema>;
export type ServerConfig = Config['server'];
export type CacheConfig = Config['cache'];
export type RedisBackendConfig = Config['cache']['backend']['redis'];
export type StorageConfig = Config['storage'];
export type AccountsConfig = Config['accounts'];
export type StoredRequestsConfig = Config['stored_requests'];
export type AnalyticsConfig = Config['analytics'];
export type AuctionConfig = Config['auction'];
export type AdaptersConfig = Config['adapters'];
export type PrivacyConfig = Config['privacy'];
export type HostCookieConfig = Config['host_cookie'];
export type UserSyncConfig = Config['user_sync'];
