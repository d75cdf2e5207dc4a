import { runLoad } from './load.js';
import type { LoadResult, LoadSpec } from './load.js';

export interface Comparison {
  readonly name: string;
  /** The lowest acceptable openbid/bare ratio. */
  readonly target: number;
  readonly bare: LoadSpec;
  /** The same request to the minimal Fastify reference (bench/lib/fastify-server.mjs). */
  readonly fastify?: LoadSpec;
  /** The same request to the bare server writing its answers at the end of each turn. */
  readonly turnBatchedBare?: LoadSpec;
  readonly openbid: LoadSpec;
}

export interface ComparisonResult {
  readonly name: string;
  readonly target: number;
  /** Medians of the rounds' req/s. */
  readonly bareRps: number;
  readonly openbidRps: number;
  /** The median of the rounds' openbid/bare ratios. */
  readonly ratio: number;
  /** Minimal Fastify / bare, when the reference was measured. */
  readonly fastifyRatio?: number;
  /** The median of the rounds' openbid / turn-batched bare, when measured: the like-for-like figure. */
  readonly turnBatchedRatio?: number;
  readonly openbidP99Ms: number;
  readonly rounds: readonly Round[];
  readonly pass: boolean;
}

interface Round {
  bare: number;
  fastify?: number;
  turnBatchedBare?: number;
  openbid: number;
}

const median = (xs: readonly number[]): number => {
  const s = [...xs].sort((a, b) => a - b);
  const mid = Math.floor(s.length / 2);
  return s.length % 2 === 1 ? (s[mid] as number) : ((s[mid - 1] as number) + (s[mid] as number)) / 2;
};

const checked = async (label: string, spec: LoadSpec): Promise<LoadResult> => {
  const result = await runLoad(spec);
  if (result.errors > 0) throw new Error(`${label}: ${result.errors} failed requests under load; figures would be meaningless`);
  return result;
};

export interface CompareOptions {
  readonly rounds: number;
  readonly seconds: number;
  readonly warmupSeconds: number;
}

/**
 * Loads the bare server and openbid in alternation, `rounds` times each, after a warm-up of both.
 * Each round's ratio compares runs seconds apart; the figure is the median of those ratios, so a
 * round in which the machine stalled for one server (this VM's bare baseline has dropped by half
 * for a round) moves it less than a ratio of medians taken from different rounds would.
 */
export const compare = async (c: Comparison, opts: CompareOptions): Promise<ComparisonResult> => {
  await checked(`${c.name} warm-up (bare)`, { ...c.bare, seconds: opts.warmupSeconds });
  if (c.fastify) await checked(`${c.name} warm-up (fastify)`, { ...c.fastify, seconds: opts.warmupSeconds });
  if (c.turnBatchedBare) await checked(`${c.name} warm-up (turn-batched bare)`, { ...c.turnBatchedBare, seconds: opts.warmupSeconds });
  await checked(`${c.name} warm-up (openbid)`, { ...c.openbid, seconds: opts.warmupSeconds });
  const rounds: Round[] = [];
  const p99s: number[] = [];
  for (let i = 0; i < opts.rounds; i++) {
    const bare = await checked(`${c.name} (bare)`, { ...c.bare, seconds: opts.seconds });
    const fastify = c.fastify ? await checked(`${c.name} (fastify)`, { ...c.fastify, seconds: opts.seconds }) : undefined;
    const batched = c.turnBatchedBare ? await checked(`${c.name} (turn-batched bare)`, { ...c.turnBatchedBare, seconds: opts.seconds }) : undefined;
    const openbid = await checked(`${c.name} (openbid)`, { ...c.openbid, seconds: opts.seconds });
    rounds.push({
      bare: bare.requestsPerSecond,
      ...(fastify ? { fastify: fastify.requestsPerSecond } : {}),
      ...(batched ? { turnBatchedBare: batched.requestsPerSecond } : {}),
      openbid: openbid.requestsPerSecond,
    });
    p99s.push(openbid.p99Ms);
  }
  const bareRps = median(rounds.map((r) => r.bare));
  const openbidRps = median(rounds.map((r) => r.openbid));
  const ratio = median(rounds.map((r) => r.openbid / r.bare));
  const fastifyRatio = c.fastify ? median(rounds.map((r) => (r.fastify ?? 0) / r.bare)) : undefined;
  const turnBatchedRatio = c.turnBatchedBare ? median(rounds.map((r) => r.openbid / (r.turnBatchedBare ?? 1))) : undefined;
  return {
    name: c.name,
    target: c.target,
    bareRps,
    openbidRps,
    ratio,
    ...(fastifyRatio !== undefined ? { fastifyRatio } : {}),
    ...(turnBatchedRatio !== undefined ? { turnBatchedRatio } : {}),
    openbidP99Ms: median(p99s),
    rounds,
    pass: ratio >= c.target,
  };
};

const fmt = (n: number): string => Math.round(n).toLocaleString('en-US');

export const formatResult = (r: ComparisonResult): string =>
  `${r.pass ? 'PASS' : 'FAIL'}  ${r.name.padEnd(44)} node:http ${fmt(r.bareRps).padStart(7)} req/s   openbid ${fmt(r.openbidRps).padStart(7)} req/s   ` +
  `ratio ${r.ratio.toFixed(2)} (target >= ${r.target.toFixed(2)})${r.turnBatchedRatio !== undefined ? `   vs turn-batched bare ${r.turnBatchedRatio.toFixed(2)}` : ''}` +
  `${r.fastifyRatio !== undefined ? `   minimal fastify ${r.fastifyRatio.toFixed(2)}` : ''}   openbid p99 ${r.openbidP99Ms.toFixed(1)} ms   rounds ${r.rounds
    .map((x) => (x.openbid / x.bare).toFixed(2))
    .join('/')}`;
