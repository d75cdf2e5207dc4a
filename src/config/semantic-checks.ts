import type { Config } from './schema.js';

/**
 * Rules that span keys or go beyond what a JSON schema says, on a config that matches the schema
 * (URL-valued keys are `url-checks.ts`'s). Returns every problem found.
 */
export const semanticProblems = (config: Config): string[] => {
  const problems: string[] = [];
  // One port cannot be both listeners; `0` (any free port) for the public one is tests' business.
  if (config.server.admin_port !== 0 && config.server.admin_port === config.server.port) {
    problems.push(`server.admin_port: must differ from server.port (${config.server.port}); the admin listener is on 6060 unless set (0: none)`);
  }
  const backend = config.cache.backend;
  if (backend.type === 'redis' && backend.redis.cluster_nodes.length === 0 && backend.redis.sentinel.nodes.length === 0 && !isRedisUrl(backend.redis.url)) {
    problems.push(`cache.backend.redis.url: must be a redis:// or rediss:// URL`);
  }
  for (const node of backend.redis.cluster_nodes) {
    if (!isHostPort(node)) problems.push(`cache.backend.redis.cluster_nodes: '${node}' is not host:port`);
  }
  problems.push(...sentinelProblems('cache.backend.redis.sentinel', backend.redis.sentinel));
  // Memory stores live inside one process: with several workers a value written through one
  // worker would be missing when read through another, so refuse rather than serve 404s.
  if (config.server.workers > 1 && backend.type === 'memory') {
    problems.push('server.workers: more than 1 worker needs cache.backend.type redis (a memory store is per process)');
  }
  if (config.cache.request_limits.max_size_bytes > config.cache.request_limits.max_body_bytes) {
    problems.push('cache.request_limits.max_size_bytes: must not exceed cache.request_limits.max_body_bytes');
  }
  problems.push(...storageProblems(config));
  if (config.auction.currency.file !== '' && config.auction.currency.url !== '') {
    problems.push('auction.currency: set file or url, not both');
  }
  return problems;
};

const isHostPort = (s: string): boolean => /^[^\s:]+:\d{1,5}$/.test(s);

const sentinelProblems = (where: string, sentinel: Config['cache']['backend']['redis']['sentinel']): string[] => {
  const problems: string[] = [];
  for (const node of sentinel.nodes) {
    if (!isHostPort(node)) problems.push(`${where}.nodes: '${node}' is not host:port`);
  }
  if (sentinel.nodes.length > 0 && sentinel.master_name === '') problems.push(`${where}.master_name: must name the master the sentinels monitor`);
  if (sentinel.nodes.length === 0 && sentinel.master_name !== '') problems.push(`${where}.nodes: must list the sentinels (host:port) to ask for ${sentinel.master_name}`);
  return problems;
};

const isRedisUrl = (s: string): boolean => {
  try {
    const u = new URL(s);
    return u.protocol === 'redis:' || u.protocol === 'rediss:';
  } catch {
    return false;
  }
};

/** Endpoints the storage path must not shadow. */
const BUILT_IN_PATHS = ['/cache', '/vtrack', '/event', '/status', '/metrics', '/openrtb2/amp', '/openrtb2/auction'];

/** Application names end up inside store keys, so they are kept to a plain character set. */
const APPLICATION_NAME = /^[A-Za-z0-9][A-Za-z0-9._-]{0,127}$/;

const storageProblems = (config: Config): string[] => {
  const problems: string[] = [];
  const path = config.api['storage-path'];
  if (!/^\/[A-Za-z0-9._~/-]*$/.test(path) || path === '/') problems.push(`api.storage-path: must be a path such as /storage, got '${path}'`);
  if (BUILT_IN_PATHS.includes(path.replace(/\/+$/, ''))) problems.push(`api.storage-path: ${path} is already an endpoint of this server`);
  const memory = Object.keys(config.storage.memory);
  const redis = Object.keys(config.storage.redis);
  for (const name of [...memory, ...redis]) {
    if (!APPLICATION_NAME.test(name)) problems.push(`storage: application name '${name}' must be letters, digits, '.', '_' or '-'`);
  }
  for (const [name, app] of Object.entries(config.storage.redis)) problems.push(...sentinelProblems(`storage.redis.${name}.sentinel`, app.sentinel));
  for (const name of memory.filter((n) => redis.includes(n))) {
    problems.push(`storage: application '${name}' is configured both in storage.memory and storage.redis`);
  }
  if (config.server.workers > 1 && memory.length > 0) {
    problems.push('server.workers: more than 1 worker needs storage applications in storage.redis (a memory store is per process)');
  }
  if (config.storage.default_ttl_seconds > config.storage.max_ttl_seconds) {
    problems.push('storage.default_ttl_seconds: must not exceed storage.max_ttl_seconds');
  }
  return problems;
};
