import { spawn } from 'node:child_process';
import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { compare } from './lib/compare.js';
import { runLoad } from './lib/load.js';
import type { CompareOptions, ComparisonResult } from './lib/compare.js';
import { referenceLoads, startFanoutServer, startOpenbid, startReferences } from './lib/servers.js';
import type { BenchServer, References } from './lib/servers.js';
import { allConsent, VENDOR_LIST_FILE } from '../test/support/consent-strings.js';
import { EMPTY_UIDS_COOKIE, encodeUidsCookie, UIDS_COOKIE_NAME, withUid } from '../src/usersync/uids-cookie.js';
import { freePort, waitFor } from '../test/support/ports.js';

const BIDDERS = ['alpha', 'beta', 'gamma'];
/** The bidders' GVL vendor ids in the test vendor list, so a TCF string can allow all three. */
const VENDOR_IDS = [10, 20, 30];

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

/** The AMP page's stored request: one banner imp for the three bidders, bids cached by AMP itself. */
const ampStoredRequest = (): string =>
  JSON.stringify({
    id: '{{UUID}}',
    site: { page: 'https://news.example/amp-article', publisher: { id: 'pub-1' } },
    imp: [{ id: 'imp-1', banner: { format: [{ w: 300, h: 250 }] }, ext: { prebid: { bidder: Object.fromEntries(BIDDERS.map((b) => [b, { placement: 1 }])) } } }],
  });

interface AuctionBench {
  readonly name: string;
  readonly path: string;
  readonly method: 'GET' | 'POST';
  readonly body?: string;
  /** Checks one answer before the load; throws when openbid is not doing the real work. */
  readonly check: (status: number, answer: unknown) => void;
}

const openRtbBench: AuctionBench = {
  name: 'POST /openrtb2/auction 1 imp, 3 bidders, cached',
  path: '/openrtb2/auction',
  method: 'POST',
  body: auctionBody(),
  check: (status, answer) => {
    const a = answer as { seatbid?: { bid: { ext: { prebid: { targeting?: Record<string, string> } } }[] }[] };
    if (status !== 200 || a.seatbid?.length !== 3) throw new Error(`/openrtb2/auction answered ${status}: ${JSON.stringify(answer).slice(0, 500)}`);
    if (!a.seatbid.some((s) => s.bid[0]?.ext.prebid.targeting?.hb_cache_id !== undefined)) throw new Error('the winning bid was not cached');
  },
};

const AMP_PATH = '/openrtb2/amp?tag_id=bench-amp&w=300&h=250&curl=https%3A%2F%2Fnews.example%2Famp-article&timeout=1000';

const checkAmp = (status: number, answer: unknown): void => {
  const t = (answer as { targeting?: Record<string, string> }).targeting ?? {};
  if (status !== 200 || t.hb_cache_id === undefined || t.hb_bidder === undefined) throw new Error(`/openrtb2/amp answered ${status}: ${JSON.stringify(answer).slice(0, 500)}`);
};

const ampBench: AuctionBench = {
  name: 'GET /openrtb2/amp 3 bidders, cached, stored request from memory',
  path: AMP_PATH,
  method: 'GET',
  check: checkAmp,
};

/**
 * The same AMP call under GDPR with a TCF v2 string granting every bidder everything: the consent
 * is decoded and checked per bidder against the vendor list, so the difference to `ampBench` is
 * the cost of privacy enforcement (the privacy issue asks for at most 10%).
 */
const ampTcfBench: AuctionBench = {
  name: 'GET /openrtb2/amp as above, GDPR with a TCF v2 string',
  path: `${AMP_PATH}&gdpr_applies=true&consent_type=2&gdpr_consent=${allConsent()}`,
  method: 'GET',
  check: checkAmp,
};

/**
 * Auction endpoints with three generic bidders answering at once from a separate process, every
 * bid cached (memory), each against bare node:http, all on one openbid. Also reports openbid's CPU
 * time per auction over one more run of openbid alone.
 */
const auctionBenchSuite = async (benches: readonly AuctionBench[], opts: CompareOptions & { connections: number; withFanout: boolean }): Promise<ComparisonResult[]> => {
  const bidders = await startBidders();
  const refs = await startReferences(0);
  const storedDir = mkdtempSync(join(tmpdir(), 'openbid-bench-stored-'));
  writeFileSync(join(storedDir, 'bench-amp.json'), ampStoredRequest());
  const openbid = await startOpenbid({
    adapters: Object.fromEntries(BIDDERS.map((b, i) => [b, { adapter: 'generic', endpoint: bidders.urls[i], gvl_vendor_id: VENDOR_IDS[i] }])),
    stored_requests: { filesystem: { directory: storedDir } },
    privacy: { gdpr: { vendor_list: { file: VENDOR_LIST_FILE } } },
  });
  const fanout = opts.withFanout ? await startFanoutServer(bidders.urls) : undefined;
  try {
    const results: ComparisonResult[] = [];
    for (const bench of benches) results.push(await measure(bench, openbid, refs, opts));
    if (fanout !== undefined) await measureFanout(fanout, results[0]!, opts);
    return results;
  } finally {
    await fanout?.stop();
    await openbid.stop();
    await refs.stop();
    bidders.stop();
  }
};

/**
 * A returning user's `uids` cookie, as a browser sends it with every auction: twelve synced
 * families, the three bidders' among them (each then receives its `user.buyeruid`).
 */
const uidsCookieHeader = (): string => {
  let cookie = EMPTY_UIDS_COOKIE;
  const families = [...BIDDERS, ...Array.from({ length: 12 - BIDDERS.length }, (_, i) => `family${i}`)];
  for (const family of families) cookie = withUid(cookie, family, `${family}-${'0123456789abcdef'.repeat(2)}`, Date.now());
  return `${UIDS_COOKIE_NAME}=${encodeUidsCookie(cookie)}`;
};

const measure = async (bench: AuctionBench, openbid: BenchServer, refs: References, opts: CompareOptions & { connections: number }): Promise<ComparisonResult> => {
  const url = `${openbid.url}${bench.path}`;
  const headers = { cookie: uidsCookieHeader(), ...(bench.body !== undefined ? { 'content-type': 'text/plain' } : {}) };
  const first = await fetch(url, { method: bench.method, headers, ...(bench.body !== undefined ? { body: bench.body } : {}) });
  bench.check(first.status, await first.json());
  const common = { seconds: opts.seconds, connections: opts.connections, method: bench.method, headers, ...(bench.body !== undefined ? { body: bench.body } : {}) };
  const result = await compare(
    {
      name: bench.name,
      target: 0.2,
      // The references answer the same method and body with an empty 200.
      ...referenceLoads(refs, (origin) => ({ ...common, url: `${origin}/cache` })),
      openbid: { ...common, url },
    },
    opts,
  );
  const cpuBefore = cpuSeconds(openbid.pid);
  const alone = await runLoad({ ...common, url });
  const cpu = cpuSeconds(openbid.pid) - cpuBefore;
  const served = alone.requestsPerSecond * opts.seconds;
  console.log(`      openbid CPU per auction ${((cpu / served) * 1e6).toFixed(0)} µs (${cpu.toFixed(2)} s over ${Math.round(served)} auctions at ${Math.round(alone.requestsPerSecond)} req/s), p99 ${alone.p99Ms.toFixed(1)} ms`);
  return result;
};

/**
 * The fan-out reference under the same load as the auction bench: a server that only relays each
 * request to the three bidders (the same POST as the auction bench, so it is measured there only).
 * Its ratio to the bare server is the most any Node.js exchange built on node:http and undici
 * could reach in this bench.
 */
const measureFanout = async (fanout: BenchServer, auction: ComparisonResult, opts: CompareOptions & { connections: number }): Promise<void> => {
  const load = await runLoad({ url: `${fanout.url}/`, method: 'POST', body: auctionBody(), headers: { 'content-type': 'text/plain' }, seconds: opts.seconds, connections: opts.connections });
  console.log(
    `      fan-out floor (node:http relaying to the 3 bidders, nothing else): ${Math.round(load.requestsPerSecond)} req/s, ` +
      `${(load.requestsPerSecond / auction.bareRps).toFixed(2)} of bare; openbid is ${(auction.openbidRps / load.requestsPerSecond).toFixed(2)} of it`,
  );
};

/** POST /openrtb2/auction: one imp, three bidders, bids cached. */
export const auctionSuite = (opts: CompareOptions & { connections: number }): Promise<ComparisonResult[]> => auctionBenchSuite([openRtbBench], { ...opts, withFanout: true });

/**
 * GET /openrtb2/amp: a stored request served from the in-memory cache after the first, three
 * bidders; then the same with a TCF consent string, and how far apart the two are.
 */
export const ampSuite = async (opts: CompareOptions & { connections: number }): Promise<ComparisonResult[]> => {
  const [plain, tcf] = await auctionBenchSuite([ampBench, ampTcfBench], { ...opts, withFanout: false });
  const cost = (1 - tcf!.openbidRps / plain!.openbidRps) * 100;
  console.log(`      TCF enforcement costs ${cost.toFixed(1)}% of AMP req/s (${Math.round(tcf!.openbidRps)} vs ${Math.round(plain!.openbidRps)}; target at most 10%)`);
  return [plain!, tcf!];
};
