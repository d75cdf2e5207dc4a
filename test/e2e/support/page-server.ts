import { readFile } from 'node:fs/promises';
import { createServer } from 'node:http';
import type { ServerResponse } from 'node:http';
import { extname, join, normalize } from 'node:path';

const root = new URL('../../../', import.meta.url).pathname;
const PAGES = join(root, 'test/e2e/pages');
const PUC_DIST = join(root, 'node_modules/prebid-universal-creative/dist');

const TYPES: Readonly<Record<string, string>> = {
  '.html': 'text/html; charset=utf-8',
  '.js': 'text/javascript; charset=utf-8',
  '.xml': 'application/xml',
};

/**
 * The publisher's pages and the ad server of the tests, one HTTP server on 127.0.0.1 reached
 * under two origins: pages load from `http://localhost:<port>` and the ad server's creatives
 * from `http://127.0.0.1:<port>`, so a creative runs in a cross-origin iframe as it does under a
 * real ad server, and openbid (on another port) is a third origin to both.
 */
export interface PageServer {
  readonly port: number;
  /** Origin of the publisher's pages: `http://localhost:<port>`. */
  readonly pageOrigin: string;
  /** Origin of the ad server: `http://127.0.0.1:<port>`. */
  readonly adServerOrigin: string;
  /** Paths (with query) requested so far, in order. */
  readonly requests: string[];
  close(): Promise<void>;
}

/** Keeps a value from ending the inline script it is written into. */
const scriptJson = (value: unknown): string => JSON.stringify(value).replace(/</g, '\\u003c');

/**
 * What an ad server (Google Ad Manager here) serves for a Prebid line item on an AMP page: the
 * Prebid Universal Creative's own template (its README), with the ad server's macros filled in
 * from the key-values of the ad request. `%%PATTERN:TARGETINGMAP%%` becomes an object of
 * arrays, as Ad Manager writes it. `amp.js` is the creative's build for AMP pages.
 */
const universalCreative = (targeting: Record<string, string>, pubUrl: string): string => {
  const targetingMap = Object.fromEntries(Object.entries(targeting).map(([k, v]) => [k, [v]]));
  return `<!doctype html>
<html><head><meta charset="utf-8"><title>ad</title></head>
<body style="margin:0">
<script src="/puc/amp.js"></script>
<script>
  var ucTagData = {};
  ucTagData.adServerDomain = "";
  ucTagData.pubUrl = ${scriptJson(pubUrl)};
  ucTagData.targetingMap = ${scriptJson(targetingMap)};
  ucTagData.hbPb = ${scriptJson(targeting.hb_pb ?? '')};
  try {
    ucTag.renderAd(document, ucTagData);
  } catch (e) {
    console.log(e);
  }
</script>
</body></html>`;
};

/** The uid macro of the mock bidders' sync URLs (`adapters.<code>.usersync.redirect.user_macro`). */
export const SYNC_UID_MACRO = '$UID';

/**
 * A bidder's sync endpoint (`/usersync?uid=<id>&redirect=<url>`): it knows the user (here: the
 * `uid` its URL carries, as a real one reads it from its own cookie) and sends the browser back
 * where the exchange asked, the uid macro filled in, URL-encoded. 400 without both, or with a
 * `redirect` that has no macro or is not http(s): a test then fails at the pixel, not later.
 */
const bidderSync = (res: ServerResponse, params: URLSearchParams): void => {
  const uid = params.get('uid') ?? '';
  const redirect = params.get('redirect') ?? '';
  if (uid === '' || !redirect.includes(SYNC_UID_MACRO) || !/^https?:\/\//.test(redirect)) {
    return send(res, 400, 'text/plain', `need uid and an http(s) redirect with ${SYNC_UID_MACRO}, got uid=${uid} redirect=${redirect}`);
  }
  res.writeHead(302, { location: redirect.replaceAll(SYNC_UID_MACRO, encodeURIComponent(uid)), 'cache-control': 'no-store', 'content-length': '0' });
  res.end();
};

const send = (res: ServerResponse, status: number, type: string, body: string | Buffer): void => {
  res.writeHead(status, { 'content-type': type, 'cache-control': 'no-store', 'content-length': String(Buffer.byteLength(body)) });
  res.end(body);
};

/**
 * Serves `/pages/<file>` (test/e2e/pages), `/build/prebid.js` (the bundle given), `/puc/<file>`
 * (the `prebid-universal-creative` package's dist), `/adserver/amp-creative?tgt=<JSON>&pub=<url>`
 * (the creative above), `/pixel/<name>` (an empty 200, for trackers) and `/usersync` (a
 * bidder's sync endpoint, above). Listens on `port` when given, else on a free one.
 */
export const startPageServer = async (prebidBundle: string, port = 0): Promise<PageServer> => {
  const requests: string[] = [];
  const server = createServer((req, res) => {
    const url = new URL(req.url ?? '/', 'http://page.server');
    requests.push(`${url.pathname}${url.search}`);
    const fileUnder = async (dir: string, rest: string): Promise<void> => {
      const path = normalize(join(dir, rest));
      if (!path.startsWith(dir + '/')) return send(res, 404, 'text/plain', 'not found');
      try {
        send(res, 200, TYPES[extname(path)] ?? 'application/octet-stream', await readFile(path));
      } catch {
        send(res, 404, 'text/plain', 'not found');
      }
    };
    if (url.pathname === '/build/prebid.js') return send(res, 200, TYPES['.js'] ?? '', prebidBundle);
    if (url.pathname.startsWith('/pages/')) return void fileUnder(PAGES, url.pathname.slice('/pages/'.length));
    if (url.pathname.startsWith('/puc/')) return void fileUnder(PUC_DIST, url.pathname.slice('/puc/'.length));
    if (url.pathname === '/adserver/amp-creative') {
      let targeting: Record<string, string>;
      try {
        targeting = JSON.parse(url.searchParams.get('tgt') ?? '{}') as Record<string, string>;
      } catch {
        return send(res, 400, 'text/plain', 'tgt is not JSON');
      }
      return send(res, 200, TYPES['.html'] ?? '', universalCreative(targeting, url.searchParams.get('pub') ?? ''));
    }
    if (url.pathname.startsWith('/pixel/')) return send(res, 200, 'text/plain', '');
    if (url.pathname === '/usersync') return bidderSync(res, url.searchParams);
    send(res, 404, 'text/plain', 'not found');
  });
  await new Promise<void>((resolve) => server.listen(port, '127.0.0.1', resolve));
  const address = server.address();
  const listening = typeof address === 'object' && address !== null ? address.port : 0;
  return {
    port: listening,
    pageOrigin: `http://localhost:${listening}`,
    adServerOrigin: `http://127.0.0.1:${listening}`,
    requests,
    close: async () => {
      server.closeAllConnections();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
};
