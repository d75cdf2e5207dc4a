// The auction matrix: POST /openrtb2/auction at 1, 5 and 20 imps × 1, 3 and 8 bidders, 5 imps for
// three real adapters, 20 × 3 as Prebid.js sends it by default, and GET /openrtb2/amp (1 imp × 3
// bidders, plain and with a TCF v2 string), each beside the fan-out floor (lib/fanout-server.mjs)
// answering the same requests from the same bidders' process.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { allConsent } from '../test/support/consent-strings.js';
import { AMP_PATH, auctionBody, BIDDERS, floorBidderUrls, openbidAuctionConfig, realAdaptersBody, REAL_ADAPTERS, startBidders, storedRequestsDir, uidsCookieHeader } from './lib/auction-fixtures.js';
import { measureCosts } from './lib/cost.js';
import type { Cost, CostOptions } from './lib/cost.js';
import type { LoadSpec } from './lib/load.js';
import { allocProbeEnv, startFanoutServer, startOpenbid } from './lib/servers.js';
import type { BenchServer } from './lib/servers.js';

export interface Cell {
  readonly name: string;
  readonly method: 'GET' | 'POST';
  /** Path and query, the same on openbid and the floor but for POSTs (the floor takes them at /). */
  readonly path: string;
  readonly body?: string;
  /** Checks openbid's answer before the load; throws when it is not doing the whole auction. */
  readonly check: (status: number, answer: unknown) => void;
  /** How many winners (one per imp) the floor must answer with. */
  readonly imps: number;
}

export interface CellResult {
  readonly cell: Cell;
  readonly openbid: Cost;
  readonly floor: Cost;
  /** Resident memory at the end of the cell (MiB): the process so far, not this cell alone. */
  readonly rssMiB: { readonly openbid: number; readonly floor: number };
  /** The most each process has held so far (VmHWM, MiB). */
  readonly peakRssMiB: { readonly openbid: number; readonly floor: number };
}

/** A variant of the generic auction cell: real adapters, or the request Prebid.js sends by default. */
type AuctionVariant = 'adapters' | 'prebid.js defaults';

const auctionCell = (imps: number, bidders: number, variant?: AuctionVariant): Cell => ({
  name: `auction ${imps}×${bidders}${variant === undefined ? '' : ` ${variant}`}`,
  method: 'POST',
  path: '/openrtb2/auction',
  body: variant === 'adapters' ? realAdaptersBody(imps) : auctionBody(imps, bidders, variant),
  imps,
  check: (status, answer) => {
    const a = answer as { seatbid?: { bid: { ext: { prebid: { targeting?: Record<string, string> } } }[] }[]; ext?: { errors?: unknown } };
    const bids = a.seatbid?.reduce((n, s) => n + s.bid.length, 0) ?? 0;
    // A bidder's error (a bid refused, say) would leave part of the work undone.
    if (status !== 200 || a.seatbid?.length !== bidders || bids !== imps * bidders || a.ext?.errors !== undefined) throw new Error(`/openrtb2/auction ${imps}×${bidders} answered ${status}: ${JSON.stringify(answer).slice(0, 500)}`);
    const targeted = a.seatbid.flatMap((s) => s.bid.map((b) => b.ext.prebid.targeting)).filter((t) => t !== undefined);
    if (variant === 'prebid.js defaults') {
      // The winners' keys only (one set per imp), and nothing cached.
      if (targeted.length !== imps || targeted.some((t) => t.hb_pb === undefined || t.hb_cache_id !== undefined)) throw new Error(`expected the winners' targeting only, uncached: ${JSON.stringify(answer).slice(0, 500)}`);
    } else if (!targeted.some((t) => t.hb_cache_id !== undefined)) {
      throw new Error('no winning bid was cached');
    }
  },
});

const checkAmp = (status: number, answer: unknown): void => {
  const t = (answer as { targeting?: Record<string, string> }).targeting ?? {};
  if (status !== 200 || t.hb_cache_id === undefined || t.hb_bidder === undefined) throw new Error(`/openrtb2/amp answered ${status}: ${JSON.stringify(answer).slice(0, 500)}`);
};

/** The nine auction cells. */
export const AUCTION_CELLS: readonly Cell[] = [1, 5, 20].flatMap((imps) => [1, 3, 8].map((bidders) => auctionCell(imps, bidders)));

/**
 * 5 imps for AppNexus, PubMatic and OpenX: their adapters' own requests (PubMatic's and OpenX's
 * gzipped, as they ask) to the same mock bidders, beside the floor's plain relay to those mocks.
 */
export const ADAPTER_CELLS: readonly Cell[] = [auctionCell(5, Object.keys(REAL_ADAPTERS).length, 'adapters')];

/**
 * 20 imps × 3 bidders as Prebid.js sends them to a server without a cache set up: targeting for
 * the winners only, no bid cached. Beside `auction 20×3`, it shows what caching every bid costs.
 */
export const PREBID_JS_DEFAULT_CELLS: readonly Cell[] = [auctionCell(20, 3, 'prebid.js defaults')];

/**
 * AMP from the stored request (cached in memory after the first call), then the same under GDPR
 * with a TCF v2 string granting every bidder everything: the difference is privacy enforcement.
 */
export const AMP_CELLS: readonly Cell[] = [
  { name: 'amp 1×3', method: 'GET', path: AMP_PATH, imps: 1, check: checkAmp },
  { name: 'amp 1×3 TCF', method: 'GET', path: `${AMP_PATH}&gdpr_applies=true&consent_type=2&gdpr_consent=${allConsent()}`, imps: 1, check: checkAmp },
];

/** The load of `cell` against `server` at `path` (the floor takes POSTs at `/`). */
export const loadSpec = (server: BenchServer, cell: Cell, path: string, opts: { connections: number }): Omit<LoadSpec, 'seconds'> => ({
  url: `${server.url}${path}`,
  method: cell.method,
  connections: opts.connections,
  headers: { cookie: uidsCookieHeader(), ...(cell.body !== undefined ? { 'content-type': 'text/plain' } : {}) },
  ...(cell.body !== undefined ? { body: cell.body } : {}),
});

const checkOnce = async (spec: Omit<LoadSpec, 'seconds'>, check: (status: number, answer: unknown) => void): Promise<void> => {
  const res = await fetch(spec.url, { method: spec.method ?? 'GET', ...(spec.headers !== undefined ? { headers: spec.headers } : {}), ...(spec.body !== undefined ? { body: spec.body } : {}) });
  check(res.status, await res.json());
};

/**
 * Runs `cells` on one openbid (pinned, with the alloc probe) and one fan-out floor (the same), both
 * calling the same bidders' process, and returns each cell's costs. Every process is stopped at
 * the end, also on failure.
 */
export const auctionMatrix = async (cells: readonly Cell[], opts: CostOptions & { connections: number }): Promise<CellResult[]> => {
  const allocDir = mkdtempSync(join(tmpdir(), 'openbid-bench-alloc-'));
  const storedDir = storedRequestsDir();
  const bidders = await startBidders();
  const servers: BenchServer[] = [];
  try {
    const openbid = await startOpenbid(openbidAuctionConfig(bidders, storedDir), { env: allocProbeEnv(allocDir) });
    servers.push(openbid);
    const floor = await startFanoutServer(floorBidderUrls(bidders), { storedDir, env: allocProbeEnv(allocDir) });
    servers.push(floor);
    const results: CellResult[] = [];
    for (const cell of cells) {
      const openbidLoad = loadSpec(openbid, cell, cell.path, opts);
      const floorLoad = loadSpec(floor, cell, cell.method === 'POST' ? '/' : cell.path, opts);
      await checkOnce(openbidLoad, cell.check);
      await checkOnce(floorLoad, (status, answer) => {
        if (status !== 200 || (answer as { winners?: unknown[] }).winners?.length !== cell.imps) throw new Error(`floor ${cell.name} answered ${status}: ${JSON.stringify(answer).slice(0, 300)}`);
      });
      const [o, f] = await measureCosts(
        [
          { server: openbid, load: openbidLoad, allocDir },
          { server: floor, load: floorLoad, allocDir },
        ],
        opts,
      );
      const [om, fm] = [openbid.memory(), floor.memory()];
      results.push({ cell, openbid: o!, floor: f!, rssMiB: { openbid: om.rssMiB, floor: fm.rssMiB }, peakRssMiB: { openbid: om.peakMiB, floor: fm.peakMiB } });
    }
    return results;
  } finally {
    for (const s of servers.reverse()) await s.stop();
    await bidders.stop();
    for (const dir of [allocDir, storedDir]) rmSync(dir, { recursive: true, force: true });
  }
};

const num = (n: number, digits = 0): string => (Number.isFinite(n) ? n.toLocaleString('en-US', { maximumFractionDigits: digits, minimumFractionDigits: digits }) : '–');

/** The matrix as a Markdown table (it reads as well in a terminal), then the TCF cost when measured. */
export const formatMatrix = (results: readonly CellResult[]): string => {
  const head = ['cell', 'openbid req/s', 'floor req/s', 'ratio', 'openbid CPU µs/auction', 'floor CPU µs/auction', 'CPU ratio', 'openbid p99 ms', 'floor p99 ms', 'openbid KB/auction', 'floor KB/auction'];
  const rows = results.map(({ cell, openbid: o, floor: f }) => [
    cell.name,
    num(o.rps),
    num(f.rps),
    num(o.rps / f.rps, 2),
    num(o.cpuMicros),
    num(f.cpuMicros),
    num(o.cpuMicros / f.cpuMicros, 2),
    num(o.p99Ms, 1),
    num(f.p99Ms, 1),
    num(o.allocKiB),
    num(f.allocKiB),
  ]);
  const lines = [head, head.map(() => '---'), ...rows].map((r) => `| ${r.join(' | ')} |`);
  const plain = results.find((r) => r.cell.name === 'amp 1×3');
  const tcf = results.find((r) => r.cell.name === 'amp 1×3 TCF');
  if (plain !== undefined && tcf !== undefined) {
    const pct = (x: number): string => `${x >= 0 ? '+' : ''}${num(x * 100, 1)}%`;
    lines.push(`TCF v2 against plain AMP (the privacy issue asks for at most 10% cost): req/s ${pct(tcf.openbid.rps / plain.openbid.rps - 1)}, CPU per auction ${pct(tcf.openbid.cpuMicros / plain.openbid.cpuMicros - 1)}`);
  }
  const last = results[results.length - 1];
  if (last !== undefined) {
    // One process each for all the cells: RSS grows with what the cells before left (openbid's memory cache fills).
    lines.push(`RSS at the end of each cell, openbid / floor MiB: ${results.map((r) => `${r.cell.name.replace(/^auction /, '')} ${num(r.rssMiB.openbid)} / ${num(r.rssMiB.floor)}`).join(', ')}`);
    lines.push(`peak RSS (VmHWM) over the matrix: openbid ${num(last.peakRssMiB.openbid)} MiB, floor ${num(last.peakRssMiB.floor)} MiB`);
  }
  lines.push(`bidders: ${BIDDERS.length} in one process of their own, not pinned; ratio = openbid / floor, medians of the rounds`);
  return lines.join('\n');
};
