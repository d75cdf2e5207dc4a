/** Where the cache keeps its values: the configuration's `cache.backend.type`. */
export type CacheBackendType = 'memory' | 'redis';

/** The young-generation size (V8 semispace, MiB) for each cache backend; see `nodeFlagsFor`. */
export const SEMI_SPACE_MIB: Readonly<Record<CacheBackendType, number>> = { memory: 4, redis: 16 };

/**
 * The Node.js flags a server process starts with. The launcher (`bin/openbid`) asks for them
 * before Node starts, since V8 sizes its heap once, at start-up.
 *
 * The young generation follows where the cache keeps its values:
 * - memory store: 4 MiB semispaces. Requests finish within one event-loop turn and stored values
 *   live off the JS heap (in the store's rings), so little survives a scavenge and a larger young
 *   generation measured no faster (README, "Operations").
 * - Redis: 16 MiB. Every request waits for Redis with its objects alive, and each scavenge copies
 *   all of them; scavenging a quarter as often measured +25% on `GET /cache` (README, "Performance").
 *
 * An operator's own `--max-semi-space-size` (or V8's `--max_semi_space_size`) in `NODE_OPTIONS`
 * wins: then nothing is added (a flag on the command line would override the environment's).
 */
export const nodeFlagsFor = (backend: CacheBackendType, nodeOptions = ''): string[] =>
  /(^|\s)--max[-_]semi[-_]space[-_]size[=\s]/.test(nodeOptions) ? [] : [`--max-semi-space-size=${SEMI_SPACE_MIB[backend]}`];
