import { spawn } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { compare } from './lib/compare.js';
import { runLoad } from './lib/load.js';
import type { CompareOptions, ComparisonResult } from './lib/compare.js';
import { referenceLoads, startOpenbid, startReferences } from './lib/servers.js';
import { freePort, waitFor } from '../test/support/ports.js';

const BIDDERS = ['alpha', 'beta', 'gamma'];

/** The bidders' process: three OpenRTB bidders answering at once, on ports of their own. */
const startBidders = async (): Promise<{ urls: string[]; stop: () => void }> => {
  const ports = await Promise.all(BIDDERS.map(() => freePort()));
  const proc = spawn(process.execPath, [new URL('./lib/bidder-server.mjs', import.meta.url).pathname], { env: { ...process.env, PORTS: ports.join(',') }, stdio: 'ignore' });
  const urls = ports.map((p) => `http://127.0.0.1:${p}/`);
  await waitFor('mock bidders', async () => (await fetch(urls[0]!, { method: 'POST', body: '{"id":"w","imp":[]}' })).ok);
  return { urls, stop: () => proc.kill('SIGTERM') };
};

/** CPU seconds (user + system) a process has used so far, from /proc. */
const cpuSeconds = (pid: number): number => {
  const fields = readFileSync(`/proc/${pid}/stat`, 'utf8').split(') ')[1]!.split(' ');
  // utime and stime are fields 14 and 15 of stat, 12 and 13 after the command name.
  return (Number(fields[11]) + Number(fields[12])) / 100;
};

/** An OpenRTB request as Prebid.js sends it, with one banner imp for the three bidders. */
export const auctionBody = (): string =>
  JSON.stringify({
    id: 'bench-auction',
    imp: [{ id: 'imp-1', banner: { format: [{ w: 300, h: 250 }, { w: 300, h: 600 }] }, ext: { prebid: { bidder: Object.fromEntries(BIDDERS.map((b) => [b, { placement: 1 }])) } } }],
    site: { page: 'https://news.example/article', domain: 'news.example', publisher: { id: 'pub-1' } },
    device: { ua: 'Mozilla/5.0 bench', ip: '203.0.113.7', w: 1280, h: 720 },
    tmax: 1000,
    ext: { prebid: { targeting: { includewinners: true, includebidderkeys: true }, cache: { bids: {} }, channel: { name: 'pbjs' } } },
  });

/**
 * POST /openrtb2/auction: one imp, three generic bidders answering at once from a separate
 * process, every bid cached (memory), against bare node:http. Also reports openbid's CPU time per
 * auction over the measured rounds.
 */
export const auctionSuite = async (opts: CompareOptions & { connections: number }): Promise<ComparisonResult[]> => {
  const bidders = await startBidders();
  const refs = await startReferences(0);
  const openbid = await startOpenbid({ adapters: Object.fromEntries(BIDDERS.map((b, i) => [b, { adapter: 'generic', endpoint: bidders.urls[i] }])) });
  try {
    const body = auctionBody();
    const check = await fetch(`${openbid.url}/openrtb2/auction`, { method: 'POST', body });
    const answer = (await check.json()) as { seatbid?: { bid: { ext: { prebid: { targeting?: Record<string, string> } } }[] }[] };
    if (check.status !== 200 || answer.seatbid?.length !== 3) throw new Error(`/openrtb2/auction answered ${check.status}: ${JSON.stringify(answer).slice(0, 500)}`);
    if (!answer.seatbid.some((s) => s.bid[0]?.ext.prebid.targeting?.hb_cache_id !== undefined)) throw new Error('the winning bid was not cached');
    const common = { seconds: opts.seconds, connections: opts.connections, method: 'POST' as const, body, headers: { 'content-type': 'text/plain' } };
    const result = await compare(
      {
        name: 'POST /openrtb2/auction 1 imp, 3 bidders, cached',
        target: 0.2,
        ...referenceLoads(refs, (origin) => ({ ...common, url: `${origin}/cache` })),
        openbid: { ...common, url: `${openbid.url}/openrtb2/auction` },
      },
      opts,
    );
    // One more run of openbid alone, to read the CPU it spends per auction at that load.
    const cpuBefore = cpuSeconds(openbid.pid);
    const alone = await runLoad({ ...common, url: `${openbid.url}/openrtb2/auction` });
    const cpu = cpuSeconds(openbid.pid) - cpuBefore;
    const served = alone.requestsPerSecond * opts.seconds;
    console.log(`      openbid CPU per auction ${((cpu / served) * 1e6).toFixed(0)} µs (${cpu.toFixed(2)} s over ${Math.round(served)} auctions at ${Math.round(alone.requestsPerSecond)} req/s), p99 ${alone.p99Ms.toFixed(1)} ms`);
    return [result];
  } finally {
    await openbid.stop();
    await refs.stop();
    bidders.stop();
  }
};
