import { existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { MockBidder, MockBidderSpec } from '../../support/mock-bidder.js';
import { startMockBidder } from '../../support/mock-bidder.js';
import { freePort, waitFor } from '../../support/ports.js';
import type { ServerProcess } from '../../support/server-process.js';
import { startServerProcess } from '../../support/server-process.js';
import type { Browser } from './browser.js';
import { launchBrowser } from './browser.js';
import type { PageServer } from './page-server.js';
import { startPageServer, SYNC_UID_MACRO } from './page-server.js';
import { buildPrebidBundle } from './prebid-bundle.js';
import { makeTestCertificate, startTlsProxy } from './tls-proxy.js';

export interface StackOptions {
  /** Bidder code → how its mock bidder answers; each runs openbid's `generic` adapter unless `adapterOf` names another. */
  readonly bidders: Record<string, MockBidderSpec>;
  /** Bidder code → the built-in adapter it runs instead of `generic` (its endpoint is still the mock's). */
  readonly adapterOf?: Record<string, string>;
  /** Stored requests (AMP `tag_id` → OpenRTB request) openbid reads from its folder. */
  readonly storedRequests?: Record<string, unknown>;
  /**
   * Bidder code → the user id its sync endpoint hands out. Each bidder named gets a redirect
   * sync in openbid's config (`adapters.<code>.usersync`, cookie family = its code) pointing at
   * the page server's `/usersync` on `bidderSyncOrigin`, and `server.external_url` becomes
   * `openbidSite`, since /setuid's URL is built from it and the `uids` cookie must be set where
   * the browser's auctions go.
   */
  readonly userSync?: Record<string, string>;
}

/** Everything a case needs, on 127.0.0.1: openbid, its TLS front, bidders, pages and a browser. */
export interface Stack {
  /** openbid itself, plain HTTP: `http://127.0.0.1:<port>` (also its `server.external_url`). */
  readonly openbid: string;
  /** The same openbid behind TLS: `https://127.0.0.1:<port>`, where creatives read the cache. */
  readonly openbidTls: string;
  /**
   * The TLS front under its own name, `https://openbid.test:<port>` (browser only: Chromium maps
   * `*.test` to 127.0.0.1), a site of its own where the `uids` cookie lives.
   */
  readonly openbidSite: string;
  /** The page server behind TLS as a host's CDN, `https://cdn.test:<port>` (serves `/puc/load-cookie.html`). */
  readonly cdnOrigin: string;
  /** The page server behind TLS as the bidders' sync host, `https://bidder.test:<port>` (serves `/usersync`). */
  readonly bidderSyncOrigin: string;
  readonly account: string;
  readonly pages: PageServer;
  readonly browser: Browser;
  readonly bidders: Record<string, MockBidder>;
  /** The records openbid's file analytics module wrote so far. */
  analyticsRecords(): Record<string, unknown>[];
  /** Waits (bounded) for an analytics record that `match` accepts. */
  waitForAnalytics(what: string, match: (r: Record<string, unknown>) => boolean): Promise<Record<string, unknown>>;
  /** What openbid printed (warnings and errors), for failure messages. */
  serverOutput(): string;
  close(): Promise<void>;
}

export const ACCOUNT = 'acct-e2e';

/**
 * Starts the real `bin/openbid` (it needs `dist/`: the e2e runner builds it) with the file
 * analytics module, a stored-request folder, one `generic` adapter per mock bidder, and bids'
 * public cache URL (`auction.cache.public_url`) on the TLS front, since the Universal Creative
 * only reads the cache over https. Then the page server and Chromium.
 */
export const startStack = async (options: StackOptions): Promise<Stack> => {
  const closers: (() => Promise<void>)[] = [];
  const close = async (): Promise<void> => {
    for (const c of closers.reverse()) await c().catch(() => undefined);
  };
  try {
    const work = mkdtempSync(join(tmpdir(), 'openbid-e2e-'));
    closers.push(async () => rmSync(work, { recursive: true, force: true }));

    const bidders: Record<string, MockBidder> = {};
    for (const [code, spec] of Object.entries(options.bidders)) {
      const bidder = await startMockBidder(spec);
      closers.push(() => bidder.close());
      bidders[code] = bidder;
    }

    const port = await freePort();
    const certificate = makeTestCertificate();
    const tls = await startTlsProxy(port, certificate);
    closers.push(() => tls.close());
    // The page server's port is chosen now: openbid's sync URLs name its TLS front.
    const pagesPort = await freePort();
    const pagesTls = await startTlsProxy(pagesPort, certificate);
    closers.push(() => pagesTls.close());
    const openbidSite = tls.originAs('openbid.test');
    const bidderSyncOrigin = pagesTls.originAs('bidder.test');

    const storedDir = join(work, 'stored_requests');
    mkdirSync(storedDir);
    for (const [id, request] of Object.entries(options.storedRequests ?? {})) writeFileSync(join(storedDir, `${id}.json`), JSON.stringify(request));
    const analyticsFile = join(work, 'analytics.jsonl');
    const openbid = `http://127.0.0.1:${port}`;
    // The three slow starts (a Node process, a bundle, a browser) overlap. All are waited for
    // before a failure is thrown, so whatever started is closed even when another fails first.
    const started = <T>(p: Promise<T>, closeIt: (v: T) => Promise<void>): Promise<T> =>
      p.then((v) => {
        closers.push(() => closeIt(v));
        return v;
      });
    const starts = [
      started(
        startServerProcess({
          server: { host: '127.0.0.1', port, external_url: options.userSync === undefined ? openbid : openbidSite, shutdown_timeout_ms: 2_000 },
          logging: { level: 'warn' },
          adapters: Object.fromEntries(
            Object.entries(bidders).map(([code, b]) => {
              const uid = options.userSync?.[code];
              return [code, { adapter: options.adapterOf?.[code] ?? 'generic', endpoint: b.url, ...(uid === undefined ? {} : { usersync: bidderUserSync(code, uid, bidderSyncOrigin) }) }];
            }),
          ),
          stored_requests: { filesystem: { directory: storedDir } },
          stored_imps: { filesystem: { directory: '' } },
          // The mock bidders first when a page leaves the choice to openbid (cooperative sync with a
          // limit, as load-cookie.html asks): a host puts its own partners in a priority group too.
          ...(options.userSync === undefined ? {} : { user_sync: { priority_groups: [Object.keys(options.userSync)] } }),
          auction: { cache: { public_url: `${tls.origin}/cache` } },
          analytics: { file: { path: analyticsFile, flush_interval_ms: 50 } },
        }),
        stopProcess,
      ),
      started(
        buildPrebidBundle().then((bundle) => startPageServer(bundle, pagesPort)),
        (p) => p.close(),
      ),
      started(launchBrowser(), (b) => b.close()),
    ] as const;
    await Promise.allSettled(starts);
    const [server, pages, browser] = await Promise.all(starts);

    await warmUp(openbid, Object.keys(bidders), Object.keys(options.storedRequests ?? {}));
    for (const bidder of Object.values(bidders)) bidder.received.splice(0);

    const analyticsRecords = (): Record<string, unknown>[] =>
      existsSync(analyticsFile)
        ? readFileSync(analyticsFile, 'utf8')
            .split('\n')
            .filter((l) => l !== '')
            .map((l) => JSON.parse(l) as Record<string, unknown>)
        : [];
    return {
      openbid,
      openbidTls: tls.origin,
      openbidSite,
      cdnOrigin: pagesTls.originAs('cdn.test'),
      bidderSyncOrigin,
      account: ACCOUNT,
      pages,
      browser,
      bidders,
      analyticsRecords,
      waitForAnalytics: async (what, match) => {
        let found: Record<string, unknown> | undefined;
        await waitFor(what, async () => (found = analyticsRecords().find(match)) !== undefined, 5_000).catch((err: Error) => {
          throw new Error(`${err.message}; records: ${JSON.stringify(analyticsRecords())}`);
        });
        return found as Record<string, unknown>;
      },
      serverOutput: () => server.output(),
      close,
    };
  } catch (err) {
    await close();
    throw err;
  }
};

/**
 * A mock bidder's sync as a bidder's `userSync` is written: a redirect (image pixel) to its sync
 * endpoint, which sends the browser on to `{{.RedirectURL}}` (openbid's /setuid) with its uid.
 */
const bidderUserSync = (code: string, uid: string, syncOrigin: string) => ({
  cookie_family: code,
  redirect: { url: `${syncOrigin}/usersync?uid=${encodeURIComponent(uid)}&redirect={{.RedirectURL}}`, user_macro: SYNC_UID_MACRO },
});

/**
 * One auction of each kind the cases make, before the browser's: a process that just started
 * compiles its code paths on first use, and on a busy two-core machine the first AMP auction
 * could overrun the page's RTC timeout (800 ms), which tests openbid's speed on a cold start, not
 * what a case is about. What the bidders receive here is forgotten by the caller.
 */
const warmUp = async (openbid: string, bidderCodes: string[], storedIds: string[]): Promise<void> => {
  const signal = AbortSignal.timeout(10_000);
  const bidder = Object.fromEntries(bidderCodes.map((code) => [code, {}]));
  const auction = { id: 'warm-up', site: { page: 'https://warm.up/' }, imp: [{ id: 'w', banner: { format: [{ w: 300, h: 250 }] }, ext: { prebid: { bidder } } }], ext: { prebid: { cache: { bids: {} } } } };
  await (await fetch(`${openbid}/openrtb2/auction`, { method: 'POST', body: JSON.stringify(auction), signal })).arrayBuffer();
  for (const id of storedIds) await (await fetch(`${openbid}/openrtb2/amp?tag_id=${encodeURIComponent(id)}`, { signal })).arrayBuffer();
};

/** SIGTERM, then SIGKILL if it has not exited within 5 s. */
const stopProcess = async (server: ServerProcess): Promise<void> => {
  server.proc.kill('SIGTERM');
  const timer = setTimeout(() => server.proc.kill('SIGKILL'), 5_000);
  await server.exited;
  clearTimeout(timer);
};
