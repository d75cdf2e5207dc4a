// Issue 28: GET /cache and the AMP auction with server.workers 1 and 2, on this machine's cores.
// More than one worker needs a shared cache, so both run on Redis; neither is pinned (the workers
// are forked before the bench could pin them, and two workers need both cores).
import { rmSync } from 'node:fs';
import { startRedis } from '../test/support/redis.js';
import { setTimeout as sleep } from 'node:timers/promises';
import { vastOfSize } from './cache.js';
import { AMP_PATH, openbidAuctionConfig, startBidders, storedRequestsDir, uidsCookieHeader } from './lib/auction-fixtures.js';
import { measureCosts } from './lib/cost.js';
import type { Cost, CostOptions } from './lib/cost.js';
import { childPids } from './lib/proc-stats.js';
import { startOpenbid } from './lib/servers.js';
import type { BenchServer } from './lib/servers.js';

export interface WorkersResult {
  readonly bench: string;
  /** Keyed by worker count. */
  readonly byWorkers: ReadonlyMap<number, Cost>;
}

const WORKER_COUNTS = [1, 2] as const;

/** Waits (at most 10 s) until a cluster primary has all its workers, each given a second to listen. */
const waitForWorkers = async (server: BenchServer, workers: number): Promise<void> => {
  if (workers === 1) return;
  for (let i = 0; i < 100 && childPids(server.pid).length < workers; i++) await sleep(100);
  if (childPids(server.pid).length < workers) throw new Error(`openbid did not start ${workers} workers`);
  await sleep(1000);
};

/** Seeds a 1 KB xml value through POST /cache and returns its uuid. */
const seedCache = async (server: BenchServer): Promise<string> => {
  const value = vastOfSize(1024);
  const res = await fetch(`${server.url}/cache`, { method: 'POST', body: JSON.stringify({ puts: [{ type: 'xml', value, ttlseconds: 3600 }] }) });
  const uuid = ((await res.json()) as { responses: { uuid: string }[] }).responses[0]?.uuid ?? '';
  if ((await (await fetch(`${server.url}/cache?uuid=${uuid}`)).text()) !== value) throw new Error('seeded value does not read back');
  return uuid;
};

/**
 * One openbid per worker count, all on the same Redis and bidders, loaded in turn per round.
 * CPU per request is that of the whole process tree (primary and workers). Everything started
 * is stopped at the end, also on failure.
 */
export const workersSuite = async (opts: CostOptions & { connections: number }): Promise<WorkersResult[]> => {
  const redis = await startRedis();
  const servers: BenchServer[] = [];
  const storedDir = storedRequestsDir();
  let bidders: Awaited<ReturnType<typeof startBidders>> | undefined;
  try {
    bidders = await startBidders();
    const base = { ...openbidAuctionConfig(bidders, storedDir), cache: { backend: { type: 'redis', redis: { url: redis.url } } } };
    for (const workers of WORKER_COUNTS) {
      const server = await startOpenbid({ ...base, server: { workers } }, { pin: false });
      servers.push(server);
      await waitForWorkers(server, workers);
    }
    const uuid = await seedCache(servers[0]!);
    const benches: { bench: string; path: string; headers: Record<string, string> }[] = [
      { bench: 'GET /cache 1 KB xml (redis)', path: `/cache?uuid=${uuid}`, headers: {} },
      { bench: 'GET /openrtb2/amp 1×3, cached (redis)', path: AMP_PATH, headers: { cookie: uidsCookieHeader() } },
    ];
    const results: WorkersResult[] = [];
    for (const b of benches) {
      const costs = await measureCosts(
        servers.map((server) => ({ server, load: { url: `${server.url}${b.path}`, headers: b.headers, connections: opts.connections } })),
        opts,
      );
      results.push({ bench: b.bench, byWorkers: new Map(WORKER_COUNTS.map((w, i) => [w, costs[i]!])) });
    }
    return results;
  } finally {
    for (const s of servers) await s.stop();
    await bidders?.stop();
    await redis.stop();
    rmSync(storedDir, { recursive: true, force: true });
  }
};

const num = (n: number | undefined, digits = 0): string => (n !== undefined && Number.isFinite(n) ? n.toLocaleString('en-US', { maximumFractionDigits: digits, minimumFractionDigits: digits }) : '–');

/** The suite's figures as a Markdown table. */
export const formatWorkers = (results: readonly WorkersResult[]): string => {
  const head = ['bench', ...WORKER_COUNTS.flatMap((w) => [`${w}w req/s`, `${w}w CPU µs/req`, `${w}w p99 ms`]), '2w/1w req/s'];
  const rows = results.map((r) => [
    r.bench,
    ...WORKER_COUNTS.flatMap((w) => [num(r.byWorkers.get(w)?.rps), num(r.byWorkers.get(w)?.cpuMicros), num(r.byWorkers.get(w)?.p99Ms, 1)]),
    num((r.byWorkers.get(2)?.rps ?? NaN) / (r.byWorkers.get(1)?.rps ?? NaN), 2),
  ]);
  return [
    ...[head, head.map(() => '---'), ...rows].map((r) => `| ${r.join(' | ')} |`),
    'openbid unpinned here (primary and workers); CPU per request counts the primary and its workers; the load generator as in the header',
  ].join('\n');
};
