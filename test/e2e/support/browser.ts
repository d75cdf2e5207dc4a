import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { chromium } from 'playwright-core';
import type { BrowserContext, Page } from 'playwright-core';

/** Debian's Chromium (`apt-get install chromium`); no browser is downloaded. */
export const CHROMIUM_PATH = process.env.OPENBID_E2E_CHROMIUM ?? '/usr/bin/chromium';

/** Where screenshots go (ignored by git). */
export const ARTIFACTS_DIR = new URL('../artifacts/', import.meta.url).pathname;

/**
 * Host names under `.test` (a name reserved for testing, never resolved on the internet) that
 * the browser resolves to 127.0.0.1, port kept: `--host-resolver-rules`, so nothing but the
 * browser's name lookup changes. They give the cases sites of their own, where cookies behave as
 * on separate domains (a cookie is not scoped by port, and `127.0.0.1` or `localhost` would make
 * every server one site), and names that scripts which refuse IP addresses and dotless hosts
 * accept (the Universal Creative's `load-cookie.html` checks its URLs so).
 */
export const HOST_RESOLVER_RULES = 'MAP *.test 127.0.0.1';

/**
 * The fresh profile's cookie setting: third-party cookies blocked only in Incognito, desktop
 * Chrome's default ("Block third-party cookies in Incognito", `profile.cookie_controls_mode` 2).
 * Headless Chromium 156 with an unset preference blocks them everywhere (the CDP reports the
 * `uids` cookie of a sync pixel as blocked for "UserPreferences"), which is not what a
 * publisher's visitors run; a user sync needs the cookie set and sent from other sites' pages.
 */
const PROFILE_PREFERENCES = { profile: { cookie_controls_mode: 2 } };

/** Bound on every wait for something a page does. */
export const PAGE_WAIT_MS = 15_000;

export interface Browser {
  readonly context: BrowserContext;
  /** Chromium's version, e.g. `156.0.8078.108`. */
  readonly version: string;
  /** The console lines and uncaught errors of every page so far, for failure messages. */
  log(): string;
  /** URLs every page and frame requested so far, in order. */
  requests(): string[];
  /** Answers every page and frame received so far, in order (redirects included). */
  responses(): { url: string; status: number }[];
  /** Opens `url` in a new tab and waits for its `load` event. */
  open(url: string): Promise<Page>;
  close(): Promise<void>;
}

/**
 * Headless Chromium with a fresh profile (its own user-data dir, removed on close), accepting
 * the suite's throw-away TLS certificate, resolving `*.test` to 127.0.0.1 and with desktop
 * Chrome's third-party cookie setting. `--no-sandbox` because CI runs as root.
 */
export const launchBrowser = async (): Promise<Browser> => {
  const userDataDir = mkdtempSync(join(tmpdir(), 'openbid-e2e-chromium-'));
  mkdirSync(join(userDataDir, 'Default'));
  writeFileSync(join(userDataDir, 'Default', 'Preferences'), JSON.stringify(PROFILE_PREFERENCES));
  const context = await chromium.launchPersistentContext(userDataDir, {
    executablePath: CHROMIUM_PATH,
    headless: true,
    args: ['--no-sandbox', `--host-resolver-rules=${HOST_RESOLVER_RULES}`],
    ignoreHTTPSErrors: true,
    viewport: { width: 800, height: 600 },
    timeout: 30_000,
  });
  context.setDefaultTimeout(PAGE_WAIT_MS);
  const lines: string[] = [];
  const requested: string[] = [];
  const answered: { url: string; status: number }[] = [];
  context.on('request', (r) => requested.push(r.url()));
  context.on('response', (r) => answered.push({ url: r.url(), status: r.status() }));
  const watch = (page: Page): void => {
    page.on('console', (m) => lines.push(`[${m.type()}] ${m.text()}`));
    page.on('pageerror', (e) => lines.push(`[pageerror] ${e.message}`));
    page.on('requestfailed', (r) => lines.push(`[requestfailed] ${r.url()} ${r.failure()?.errorText ?? ''}`));
  };
  context.on('page', watch);
  return {
    context,
    version: context.browser()?.version() ?? 'unknown',
    log: () => lines.join('\n'),
    requests: () => [...requested],
    responses: () => [...answered],
    open: async (url) => {
      const page = await context.newPage();
      await page.goto(url, { waitUntil: 'load', timeout: PAGE_WAIT_MS });
      return page;
    },
    close: async () => {
      await context.close();
      rmSync(userDataDir, { recursive: true, force: true });
    },
  };
};

/**
 * Waits (bounded) until the page's script has set `window.e2e.done`, then returns `window.e2e`:
 * each test page reports what it saw there. A page that failed reports `error`.
 */
export const pageResult = async <T>(page: Page, browser: Browser): Promise<T> => {
  try {
    await page.waitForFunction('window.e2e !== undefined && window.e2e.done === true', undefined, { timeout: PAGE_WAIT_MS });
  } catch (err) {
    const partial = (await page.evaluate('JSON.stringify(window.e2e)').catch(() => 'unreadable')) as string;
    throw new Error(`${(err as Error).message}\npage state: ${partial}\n--- browser log ---\n${browser.log()}`);
  }
  return page.evaluate<T>('window.e2e');
};

/** Saves a screenshot of the page as `test/e2e/artifacts/<name>.png`; returns its path. */
export const screenshot = async (page: Page, name: string): Promise<string> => {
  mkdirSync(ARTIFACTS_DIR, { recursive: true });
  const path = join(ARTIFACTS_DIR, `${name}.png`);
  await page.screenshot({ path, fullPage: true });
  return path;
};
