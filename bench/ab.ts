// A/B of two builds on one auction cell: `npm run bench:ab -- <other checkout> [cell]`. Starts the
// mock bidders once and openbid from each checkout's dist/ (the other one built beforehand: `npm
// run build` there), both pinned to the server core, then loads them in turn, A, B, A, B..., so
// the pairs see the same machine. Prints CPU µs per auction and req/s of each run and the medians.
// Cells: the matrix's (`auction IxB`, I imps × B bidders; `auction 5x3 adapters`; `auction 20x3
// prebid.js defaults`; `amp`, `amp TCF`). Only 127.0.0.1.
import { rmSync } from 'node:fs';
import { resolve } from 'node:path';
import { ADAPTER_CELLS, AMP_CELLS, AUCTION_CELLS, loadSpec, PREBID_JS_DEFAULT_CELLS } from './auction.js';
import { openbidAuctionConfig, startBidders, storedRequestsDir } from './lib/auction-fixtures.js';
import { median } from './lib/cost.js';
import { runLoad } from './lib/load.js';
import { cpuSeconds } from './lib/proc-stats.js';
import { startOpenbid } from './lib/servers.js';
import type { BenchServer } from './lib/servers.js';

const [other, cellArg = 'auction 1x3'] = process.argv.slice(2);
if (other === undefined) {
  console.error('usage: npm run bench:ab -- <other checkout, built> ["auction IxB" | "auction 5x3 adapters" | "auction 20x3 prebid.js defaults" | amp | "amp TCF"]');
  process.exit(2);
}
// The matrix names its cells `auction 5×3`, `amp 1×3`, `amp 1×3 TCF`.
const cellName = cellArg.replace(/(\d)x(\d)/, '$1×$2').replace(/^amp(?! 1×3)/, 'amp 1×3');
const cells = [...AUCTION_CELLS, ...ADAPTER_CELLS, ...PREBID_JS_DEFAULT_CELLS, ...AMP_CELLS];
const cell = cells.find((c) => c.name === cellName);
if (cell === undefined) {
  console.error(`no cell ${cellArg}; cells: ${cells.map((c) => c.name).join(', ')}`);
  process.exit(2);
}
const connections = Number(process.env.BENCH_CONNECTIONS ?? 64);
const pairs = Number(process.env.BENCH_PAIRS ?? 6);
const seconds = Number(process.env.BENCH_SECONDS ?? 4);

const storedDir = storedRequestsDir();
const bidders = await startBidders();
const config = openbidAuctionConfig(bidders, storedDir);
const servers: BenchServer[] = [];
try {
  servers.push(await startOpenbid(config, { checkout: resolve(other) }), await startOpenbid(config));
  const specFor = (s: BenchServer) => loadSpec(s, cell, cell.path, { connections });
  const cpu: number[][] = [[], []];
  const rps: number[][] = [[], []];
  // Long enough for both builds' JIT to settle: shorter warm-ups left the first pairs far apart.
  for (const s of servers) await runLoad({ ...specFor(s), seconds: 4 });
  for (let p = 0; p < pairs; p++) {
    const line: string[] = [];
    // A then B in odd pairs, B then A in even ones: neither always runs second.
    const order = p % 2 === 0 ? [0, 1] : [1, 0];
    for (const i of order) {
      const s = servers[i]!;
      const c0 = cpuSeconds(s.pid);
      const r = await runLoad({ ...specFor(s), seconds });
      if (r.errors > 0) throw new Error(`${s.name}: ${r.errors} failed requests`);
      cpu[i]!.push(((cpuSeconds(s.pid) - c0) / r.requests) * 1e6);
      rps[i]!.push(r.requestsPerSecond);
      line[i] = `${i === 0 ? 'A' : 'B'} ${Math.round(cpu[i]!.at(-1)!)} µs ${Math.round(r.requestsPerSecond)} req/s`;
    }
    console.log(`pair ${p + 1}: ${line.join(' | ')}`);
  }
  const [a, b] = [median(cpu[0]!), median(cpu[1]!)];
  const below = cpu[1]!.filter((x, i) => x < cpu[0]![i]!).length;
  console.log(`${cellArg}: A (${other}) ${Math.round(a)} µs, B (this checkout) ${Math.round(b)} µs per auction: ${((b / a - 1) * 100).toFixed(1)}%, B below A in ${below} of ${pairs} pairs; req/s ${Math.round(median(rps[0]!))} → ${Math.round(median(rps[1]!))}`);
} finally {
  for (const s of servers) await s.stop();
  await bidders.stop();
  rmSync(storedDir, { recursive: true, force: true });
}
