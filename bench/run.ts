// Load benchmarks: `npm run bench [-- suite ...]`, suites: cache, cache-redis, storage, event, vtrack, auction, amp, workers, memory, zlib (default all).
// The endpoint suites give ratios to a bare node:http server measured in the same run, medians of
// BENCH_ROUNDS rounds (default 3) of BENCH_SECONDS seconds (default 5). `auction` and `amp` give
// the auction matrix beside the fan-out floor (default 3 rounds of 3 s; both selected: one run,
// one table), `workers` openbid with 1 and 2 workers, `zlib` compression on the event loop against
// the thread pool (in-process). Only 127.0.0.1 is used.
import { ADAPTER_CELLS, AMP_CELLS, AUCTION_CELLS, auctionMatrix, formatMatrix, PREBID_JS_DEFAULT_CELLS } from './auction.js';
import { cacheSuite } from './cache.js';
import { formatResult } from './lib/compare.js';
import type { ComparisonResult } from './lib/compare.js';
import { loadTool } from './lib/load.js';
import { benchHeader } from './lib/header.js';
import { eventSuite } from './event.js';
import { memorySuite } from './memory.js';
import { storageSuite } from './storage.js';
import { vtrackSuite } from './vtrack.js';
import { formatZlib, zlibSuite } from './zlib.js';
import { formatWorkers, workersSuite } from './workers.js';

const env = (name: string, fallback: number): number => Number(process.env[name] ?? fallback);
const opts = {
  rounds: env('BENCH_ROUNDS', 3),
  seconds: env('BENCH_SECONDS', 5),
  warmupSeconds: env('BENCH_WARMUP_SECONDS', 2),
  connections: env('BENCH_CONNECTIONS', 64),
};
/**
 * The matrix has thirteen cells, each loading two servers: shorter rounds keep it to a few minutes.
 * Three of them, as the auction cost's acceptance reads medians of three pairs.
 */
const matrixOpts = { ...opts, rounds: env('BENCH_ROUNDS', 3), seconds: env('BENCH_SECONDS', 3), warmupSeconds: env('BENCH_WARMUP_SECONDS', 1) };
const selected = process.argv.slice(2).length > 0 ? process.argv.slice(2) : undefined;

/** `auction` and `amp` share one matrix run when both are selected: same openbid, floor and bidders. */
const matrix = async (name: 'auction' | 'amp'): Promise<boolean> => {
  const both = selected === undefined || (selected.includes('auction') && selected.includes('amp'));
  if (both && name === 'amp') return true;
  const auction = [...AUCTION_CELLS, ...ADAPTER_CELLS, ...PREBID_JS_DEFAULT_CELLS];
  const cells = both ? [...auction, ...AMP_CELLS] : name === 'auction' ? auction : AMP_CELLS;
  console.log(`\nauction matrix: ${matrixOpts.rounds} rounds x ${matrixOpts.seconds}s per server and cell, ${matrixOpts.warmupSeconds}s warm-up`);
  console.log(formatMatrix(await auctionMatrix(cells, matrixOpts)));
  return true;
};

const suites: Record<string, () => Promise<boolean>> = {
  cache: async () => report(await cacheSuite('memory', opts)),
  'cache-redis': async () => report(await cacheSuite('redis', opts)),
  storage: async () => report(await storageSuite(opts)),
  event: async () => report(await eventSuite(opts)),
  vtrack: async () => report(await vtrackSuite(opts)),
  auction: () => matrix('auction'),
  amp: () => matrix('amp'),
  workers: async () => {
    console.log(`\nworkers: ${matrixOpts.rounds} rounds x ${matrixOpts.seconds}s per server and bench, ${matrixOpts.warmupSeconds}s warm-up`);
    console.log(formatWorkers(await workersSuite(matrixOpts)));
    return true;
  },
  zlib: async () => {
    console.log('\nzlib: on the event loop against the thread pool (8 calls at a time), CPU of the whole process');
    console.log(formatZlib(await zlibSuite()));
    return true;
  },
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

console.log(benchHeader(loadTool(), opts));
let ok = true;
for (const name of selected ?? Object.keys(suites)) {
  const suite = suites[name];
  if (suite === undefined) {
    console.error(`unknown suite ${name}; known: ${Object.keys(suites).join(', ')}`);
    process.exit(2);
  }
  ok = (await suite()) && ok;
}
process.exit(ok ? 0 : 1);
