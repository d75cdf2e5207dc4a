// Load benchmarks: `npm run bench [-- suite ...]`, suites: cache, cache-redis, storage, event, vtrack, auction, amp, memory (default all).
// Each figure is a ratio to a bare node:http server measured in the same run, medians of
// BENCH_ROUNDS rounds (default 3) of BENCH_SECONDS seconds (default 5). Only 127.0.0.1 is used.
import { availableParallelism, cpus } from 'node:os';
import { ampSuite, auctionSuite } from './auction.js';
import { cacheSuite } from './cache.js';
import { formatResult } from './lib/compare.js';
import type { ComparisonResult } from './lib/compare.js';
import { loadTool } from './lib/load.js';
import { pinning } from './lib/servers.js';
import { eventSuite } from './event.js';
import { memorySuite } from './memory.js';
import { storageSuite } from './storage.js';
import { vtrackSuite } from './vtrack.js';

const env = (name: string, fallback: number): number => Number(process.env[name] ?? fallback);
const opts = {
  rounds: env('BENCH_ROUNDS', 3),
  seconds: env('BENCH_SECONDS', 5),
  warmupSeconds: env('BENCH_WARMUP_SECONDS', 2),
  connections: env('BENCH_CONNECTIONS', 64),
};

const suites: Record<string, () => Promise<boolean>> = {
  cache: async () => report(await cacheSuite('memory', opts)),
  'cache-redis': async () => report(await cacheSuite('redis', opts)),
  storage: async () => report(await storageSuite(opts)),
  event: async () => report(await eventSuite(opts)),
  vtrack: async () => report(await vtrackSuite(opts)),
  auction: async () => report(await auctionSuite(opts)),
  amp: async () => report(await ampSuite(opts)),
  memory: async () => {
    const r = await memorySuite({ totalMiB: 1024, storeMiB: 64, targetMiB: 250, maxSeconds: 300 });
    console.log(
      `${r.pass ? 'PASS' : 'FAIL'}  memory store capped at 64 MiB after writing ${Math.round(r.writtenMiB)} MiB in ${r.seconds.toFixed(1)} s: ` +
        `RSS ${r.rssMiB.toFixed(0)} MiB (peak ${r.peakMiB.toFixed(0)} MiB, target < ${r.target} MiB)`,
    );
    return r.pass;
  },
};

const report = (results: readonly ComparisonResult[]): boolean => {
  for (const r of results) console.log(formatResult(r));
  return results.every((r) => r.pass);
};

const selected = process.argv.slice(2).length > 0 ? process.argv.slice(2) : Object.keys(suites);
console.log(
  `openbid bench: ${cpus()[0]?.model ?? 'cpu'} x${availableParallelism()}, node ${process.version}, load by ${loadTool()}, ` +
    `${pinning() ? `server on cpu ${pinning()?.server}, load on cpu ${pinning()?.load}` : 'unpinned'}, ` +
    `${opts.rounds} rounds x ${opts.seconds}s, ${opts.connections} connections`,
);
let ok = true;
for (const name of selected) {
  const suite = suites[name];
  if (suite === undefined) {
    console.error(`unknown suite ${name}; known: ${Object.keys(suites).join(', ')}`);
    process.exit(2);
  }
  ok = (await suite()) && ok;
}
process.exit(ok ? 0 : 1);
