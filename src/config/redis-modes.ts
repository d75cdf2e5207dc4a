/**
 * Which connection modes a Redis section names, read from the configuration as written (before
 * defaults): `url` has a default, so only the raw text tells whether an operator set it beside
 * another mode. Exactly one mode decides how to connect; two named is a mistake to refuse at
 * start, not a choice to make silently.
 */

const isObject = (v: unknown): v is Record<string, unknown> => typeof v === 'object' && v !== null && !Array.isArray(v);

const nonEmptyArray = (v: unknown): boolean => Array.isArray(v) && v.length > 0;

/** Sentinel mode is named by a `sentinel` section with `nodes`; an empty one is a template left in place. */
const namesSentinel = (section: Record<string, unknown>): boolean => isObject(section.sentinel) && nonEmptyArray(section.sentinel.nodes);

/**
 * Problems with the Redis modes of `cache.backend.redis` and of each `storage.redis.<application>`
 * in a raw configuration (environment overrides applied). `cluster_nodes` with `url` stays allowed:
 * there `url` carries only the cluster's credentials and TLS.
 */
export const redisModeProblems = (raw: Record<string, unknown>): string[] => {
  const problems: string[] = [];
  const cache = isObject(raw.cache) && isObject(raw.cache.backend) && isObject(raw.cache.backend.redis) ? raw.cache.backend.redis : undefined;
  if (cache !== undefined && namesSentinel(cache)) {
    const others = [typeof cache.url === 'string' && cache.url !== '' ? 'url' : '', nonEmptyArray(cache.cluster_nodes) ? 'cluster_nodes' : ''].filter((k) => k !== '');
    if (others.length > 0) {
      problems.push(`cache.backend.redis: set one of url, cluster_nodes or sentinel, not sentinel and ${others.join(' and ')}`);
    }
  }
  const apps = isObject(raw.storage) && isObject(raw.storage.redis) ? raw.storage.redis : {};
  for (const [name, app] of Object.entries(apps)) {
    if (!isObject(app) || !namesSentinel(app)) continue;
    // A password beside sentinel would be ignored (the master's is sentinel.password): refuse it too.
    const others = ['host', 'port', 'password'].filter((k) => app[k] !== undefined && app[k] !== '');
    if (others.length > 0) problems.push(`storage.redis.${name}: set host and port or sentinel, not sentinel and ${others.join(' and ')}`);
  }
  return problems;
};
