// Throughput and cost per request of servers under the same load, rounds alternating between
// them: req/s, p99, CPU µs per request (from /proc) and, with the alloc probe, heap KB per request.
import { runLoad } from './load.js';
import type { LoadSpec } from './load.js';
import { allocatedBytes, childPids, cpuSeconds } from './proc-stats.js';
import type { BenchServer } from './servers.js';

export interface CostTarget {
  readonly server: BenchServer;
  /** The load, against this server; its length comes from the options of each run. */
  readonly load: Omit<LoadSpec, 'seconds'>;
  /** The alloc probe's directory when the probe is preloaded into the server. */
  readonly allocDir?: string;
}

/** Medians over the rounds. */
export interface Cost {
  readonly rps: number;
  readonly p99Ms: number;
  readonly cpuMicros: number;
  /** NaN without the alloc probe. */
  readonly allocKiB: number;
  readonly rounds: readonly number[];
}

export interface CostOptions {
  readonly rounds: number;
  readonly seconds: number;
  readonly warmupSeconds: number;
}

/** The middle of `xs` (the mean of the two middle values for an even count). */
export const median = (xs: readonly number[]): number => {
  const s = [...xs].sort((a, b) => a - b);
  const mid = Math.floor(s.length / 2);
  return s.length % 2 === 1 ? (s[mid] as number) : ((s[mid - 1] as number) + (s[mid] as number)) / 2;
};

interface Sample {
  rps: number;
  p99Ms: number;
  cpuMicros: number;
  allocKiB: number;
}

/** One load against one target, with its CPU and allocation deltas; failed requests abort the bench. */
const sample = async (target: CostTarget, seconds: number): Promise<Sample> => {
  const { pid } = target.server;
  const workers = childPids(pid).length;
  const alloc0 = target.allocDir !== undefined ? await allocatedBytes(target.allocDir, pid) : NaN;
  const cpu0 = cpuSeconds(pid);
  const load = await runLoad({ ...target.load, seconds });
  const cpu = cpuSeconds(pid) - cpu0;
  const alloc = target.allocDir !== undefined ? (await allocatedBytes(target.allocDir, pid)) - alloc0 : NaN;
  if (load.errors > 0) throw new Error(`${target.server.name} ${target.load.url}: ${load.errors} failed requests under load; figures would be meaningless`);
  // A worker that died and was replaced would take its CPU seconds with it.
  if (childPids(pid).length !== workers) throw new Error(`${target.server.name}: its worker count changed under load`);
  const served = Math.max(load.requests, 1);
  return { rps: load.requestsPerSecond, p99Ms: load.p99Ms, cpuMicros: (cpu / served) * 1e6, allocKiB: alloc / served / 1024 };
};

/**
 * Warms every target up, then loads them in turn, `rounds` times, so each round compares runs
 * seconds apart on a machine whose speed drifts. Each figure is the median of its rounds.
 */
export const measureCosts = async (targets: readonly CostTarget[], opts: CostOptions): Promise<Cost[]> => {
  for (const t of targets) await sample(t, opts.warmupSeconds);
  const samples: Sample[][] = targets.map(() => []);
  for (let round = 0; round < opts.rounds; round++) {
    for (const [i, t] of targets.entries()) samples[i]!.push(await sample(t, opts.seconds));
  }
  return samples.map((s) => ({
    rps: median(s.map((x) => x.rps)),
    p99Ms: median(s.map((x) => x.p99Ms)),
    cpuMicros: median(s.map((x) => x.cpuMicros)),
    allocKiB: median(s.map((x) => x.allocKiB)),
    rounds: s.map((x) => x.rps),
  }));
};
