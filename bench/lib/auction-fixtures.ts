// What the auction benches send and who answers: the mock bidders' process, OpenRTB requests of
// N imps for M bidders, the AMP page's stored request, a returning user's cookie, and openbid's
// configuration for all of them.
import { spawn } from 'node:child_process';
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { VENDOR_LIST_FILE } from '../../test/support/consent-strings.js';
import { EMPTY_UIDS_COOKIE, encodeUidsCookie, UIDS_COOKIE_NAME, withUid } from '../../src/usersync/uids-cookie.js';
import { freePort, waitFor } from '../../test/support/ports.js';

/** Up to eight bidders; the first three have GVL vendor ids in the test vendor list (for TCF). */
export const BIDDERS = ['alpha', 'beta', 'gamma', 'delta', 'epsilon', 'zeta', 'eta', 'theta'] as const;
const VENDOR_IDS: Record<string, number> = { alpha: 10, beta: 20, gamma: 30 };

/** The AMP page's tag id: its stored request has one banner imp for the first three bidders. */
export const AMP_TAG_ID = 'bench-amp';
export const AMP_PATH = `/openrtb2/amp?tag_id=${AMP_TAG_ID}&w=300&h=250&curl=https%3A%2F%2Fnews.example%2Famp-article&timeout=1000`;

export interface Bidders {
  /** Bidder name to its URL, for every bidder in BIDDERS. */
  readonly urls: Record<string, string>;
  readonly pid: number;
  stop(): Promise<void>;
}

/**
 * The bidders' process (bidder-server.mjs): all of BIDDERS, each on a port of its own, one bid per
 * imp. Apart from openbid and the floor, so its work counts in neither's CPU time.
 */
export const startBidders = async (): Promise<Bidders> => {
  const ports = await Promise.all(BIDDERS.map(() => freePort()));
  const proc = spawn(process.execPath, [new URL('./bidder-server.mjs', import.meta.url).pathname], { env: { ...process.env, PORTS: ports.join(',') }, stdio: 'ignore' });
  const urls = Object.fromEntries(BIDDERS.map((b, i) => [b, `http://127.0.0.1:${ports[i]}/`]));
  const stop = async (): Promise<void> => {
    if (proc.exitCode !== null || proc.signalCode !== null) return;
    const exited = new Promise((r) => proc.once('exit', r));
    proc.kill('SIGTERM');
    await exited;
  };
  try {
    await waitFor('mock bidders', async () => (await fetch(urls.alpha!, { method: 'POST', body: '{"id":"w","imp":[]}' })).ok);
  } catch (err) {
    await stop();
    throw err;
  }
  return { urls, pid: proc.pid ?? 0, stop };
};

/** One banner imp for these bidders, as Prebid.js sends it. */
const imp = (n: number, bidders: readonly string[]): unknown => ({
  id: `imp-${n}`,
  banner: { format: [{ w: 300, h: 250 }, { w: 300, h: 600 }] },
  ext: { prebid: { bidder: Object.fromEntries(bidders.map((b) => [b, { placement: n }])) } },
});

/**
 * Three of Prebid Server's most used adapters, each sending to one of the mock bidders (the first
 * three of BIDDERS') in its own format: AppNexus plain, PubMatic and OpenX with gzip bodies, as
 * they ask for. Their params, per imp, as a publisher sets them.
 */
export const REAL_ADAPTERS = {
  appnexus: { mock: 'alpha', params: (n: number) => ({ placement_id: 13144370 + n }) },
  pubmatic: { mock: 'beta', params: (n: number) => ({ publisherId: '156209', adSlot: `slot${n}@300x250` }) },
  openx: { mock: 'gamma', params: (n: number) => ({ unit: String(540000000 + n), delDomain: 'bench-d.openx.net' }) },
} as const;
type RealAdapter = keyof typeof REAL_ADAPTERS;
const REAL_ADAPTER_CODES = Object.keys(REAL_ADAPTERS) as RealAdapter[];

/** A banner imp for the real adapters, each with its own params. */
const realAdaptersImp = (n: number): unknown => ({
  id: `imp-${n}`,
  banner: { format: [{ w: 300, h: 250 }, { w: 300, h: 600 }] },
  ext: { prebid: { bidder: Object.fromEntries(REAL_ADAPTER_CODES.map((code) => [code, REAL_ADAPTERS[code].params(n)])) } },
});

/**
 * What a request asks of the exchange beyond the auction (`ext.prebid`):
 * - `every bid cached`: targeting for every bidder's best bid and each bid cached, the issue's
 *   measure of an auction's cost (and what AMP and video pages need);
 * - `prebid.js defaults`: what Prebid.js 11 sends to a server with no `cache` set up, targeting
 *   for the winners only and nothing cached.
 */
export type RequestShape = 'every bid cached' | 'prebid.js defaults';

const PREBID_EXT: Record<RequestShape, unknown> = {
  'every bid cached': { targeting: { includewinners: true, includebidderkeys: true }, cache: { bids: {} }, channel: { name: 'pbjs' } },
  'prebid.js defaults': { targeting: { includewinners: true, includebidderkeys: false }, channel: { name: 'pbjs' } },
};

/** An OpenRTB request as Prebid.js sends it: `imps` banner imps, each for the first `bidders` bidders. */
export const auctionBody = (imps: number, bidders: number, shape?: RequestShape): string =>
  requestBody(
    Array.from({ length: imps }, (_, i) => imp(i + 1, BIDDERS.slice(0, bidders))),
    shape,
  );

/** The same request with `imps` imps for the three real adapters. */
export const realAdaptersBody = (imps: number): string => requestBody(Array.from({ length: imps }, (_, i) => realAdaptersImp(i + 1)));

const requestBody = (imps: readonly unknown[], shape: RequestShape = 'every bid cached'): string =>
  JSON.stringify({
    id: 'bench-auction',
    imp: imps,
    site: { page: 'https://news.example/article', domain: 'news.example', publisher: { id: 'pub-1' } },
    device: { ua: 'Mozilla/5.0 bench', ip: '203.0.113.7', w: 1280, h: 720 },
    tmax: 1000,
    ext: { prebid: PREBID_EXT[shape] },
  });

/** A directory holding the AMP page's stored request (one banner imp, three bidders), for openbid and the floor. */
export const storedRequestsDir = (): string => {
  const dir = mkdtempSync(join(tmpdir(), 'openbid-bench-stored-'));
  const stored = {
    id: '{{UUID}}',
    site: { page: 'https://news.example/amp-article', publisher: { id: 'pub-1' } },
    imp: [{ id: 'imp-1', banner: { format: [{ w: 300, h: 250 }] }, ext: { prebid: { bidder: Object.fromEntries(BIDDERS.slice(0, 3).map((b) => [b, { placement: 1 }])) } } }],
  };
  writeFileSync(join(dir, `${AMP_TAG_ID}.json`), JSON.stringify(stored));
  return dir;
};

/** The floor's bidders by name: the mock bidders, and the real adapters' codes on the mocks they send to. */
export const floorBidderUrls = (bidders: Bidders): Record<string, string> => ({
  ...bidders.urls,
  ...Object.fromEntries(REAL_ADAPTER_CODES.map((code) => [code, bidders.urls[REAL_ADAPTERS[code].mock] as string])),
});

/** openbid's configuration: every mock bidder as a generic adapter, the real adapters pointed at mocks, stored requests from `storedDir`, the test vendor list. */
export const openbidAuctionConfig = (bidders: Bidders, storedDir: string): Record<string, unknown> => ({
  adapters: {
    ...Object.fromEntries(
      BIDDERS.map((b) => [
        b,
        {
          adapter: 'generic',
          endpoint: bidders.urls[b],
          ...(VENDOR_IDS[b] !== undefined ? { gvl_vendor_id: VENDOR_IDS[b] } : {}),
          usersync: { redirect: { url: `https://${b}.example/sync?r={{.RedirectURL}}`, user_macro: '$UID' } },
        },
      ]),
    ),
    ...Object.fromEntries(REAL_ADAPTER_CODES.map((code) => [code, { endpoint: bidders.urls[REAL_ADAPTERS[code].mock] }])),
  },
  stored_requests: { filesystem: { directory: storedDir } },
  privacy: { gdpr: { vendor_list: { file: VENDOR_LIST_FILE } } },
});

/**
 * A returning user's `uids` cookie, as a browser sends it with every auction: twelve synced
 * families, the first three bidders' among them (each then receives its `user.buyeruid`).
 */
export const uidsCookieHeader = (): string => {
  let cookie = EMPTY_UIDS_COOKIE;
  const families = [...BIDDERS.slice(0, 3), ...Array.from({ length: 9 }, (_, i) => `family${i}`)];
  for (const family of families) cookie = withUid(cookie, family, `${family}-${'0123456789abcdef'.repeat(2)}`, Date.now());
  return `${UIDS_COOKIE_NAME}=${encodeUidsCookie(cookie)}`;
};
