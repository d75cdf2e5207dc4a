import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { after, before, describe, it } from 'node:test';
import { setTimeout as sleep } from 'node:timers/promises';
import { COOKIE_SYNC_MAX_BODY_BYTES } from '../../src/http/routes/cookie-sync.js';
import { craftedTcf, gppHeaderRangeBomb, gppWithTcf, VENDOR_LIST_FILE } from '../support/consent-strings.js';
import { startMockBidder } from '../support/mock-bidder.js';
import type { MockBidder } from '../support/mock-bidder.js';
import { startServerProcess } from '../support/server-process.js';
import type { ServerProcess } from '../support/server-process.js';

/*
 * Issue 36, finding 1: one crafted consent string stalled the whole server (a 64 KiB
 * `gdpr_consent` in a `POST /cookie_sync` ~21 s, 128 KiB in an auction ~41 s, 12 KiB in an AMP
 * or `/setuid` GET 3–4.5 s). The strings here are made as the attacker made them: a valid TCF v2
 * core whose publisher restrictions hold thousands of range entries over every vendor, which a
 * decoder that expands ranges pays 65,535 steps for each; and a GPP header of a dozen characters
 * whose section-id range names millions of sections. Every run sends another string (a changed
 * CMP id), as the attacker did, so that no decoder's cache answers.
 *
 * A real `bin/openbid` (a real bidder behind the auctions) answers each within 100 ms while
 * `/status`, polled all along, answers within 50 ms. GETs carry at most what a request head holds
 * (16 KiB: node:http answers 431 past it), so they also get 12 KiB, decoded in full.
 *
 * On a busy machine (other test processes on both cores) a single latency says more about the
 * scheduler than about the server, so each case runs at least three times after a warm-up, and
 * until one run meets both of the bounds (at most ten): the server's own CPU time for the
 * request (from /proc, whatever else runs) is held to 100 ms at the median, and one run must meet
 * the bounds (none could while a decode held the event loop: before the fix every run took
 * seconds). A run over a second fails at once.
 */

const STORED_AMP = new URL('../fixtures/amp-stored/requests', import.meta.url).pathname;
const REQUEST_BOUND_MS = 100;
const STATUS_BOUND_MS = 50;
const CPU_BOUND_MS = 100;
const STALLED_MS = 1000;
const MIN_RUNS = 3;
const MAX_RUNS = 10;
const KIB = 1024;

let server: ServerProcess;
let bidder: MockBidder;

before(async () => {
  bidder = await startMockBidder({ status: 204 });
  const sync = { redirect: { url: 'https://sync.example/s?gdpr={{.GDPR}}&c={{.GDPRConsent}}&r={{.RedirectURL}}', user_macro: '$UID' } };
  server = await startServerProcess({
    server: { external_url: 'https://pbs.example' },
    logging: { level: 'warn' },
    adapters: {
      alpha: { adapter: 'generic', endpoint: bidder.url, gvl_vendor_id: 10, usersync: sync },
      beta: { adapter: 'generic', endpoint: bidder.url, gvl_vendor_id: 20, usersync: { ...sync, cookie_family: 'betafam' } },
    },
    stored_requests: { filesystem: { directory: STORED_AMP } },
    privacy: { gdpr: { host_vendor_id: 10, vendor_list: { file: VENDOR_LIST_FILE } } },
  });
});
after(async () => {
  server?.proc.kill('SIGKILL');
  await server?.exited;
  await bidder?.close();
});

/** CPU milliseconds the server process has used so far (utime + stime, in 10 ms ticks). */
const serverCpuMs = (): number => {
  const fields = readFileSync(`/proc/${server.proc.pid}/stat`, 'utf8').split(') ')[1]!.split(' ');
  return (Number(fields[11]) + Number(fields[12])) * 10;
};

/** A request made with the run's own variant of the crafted string (before the clock starts), then sent. */
type Call = (variant: number) => (signal: AbortSignal) => Promise<Response>;

const post = (path: string, body: (variant: number) => unknown): Call => (variant) => {
  const text = JSON.stringify(body(variant));
  return (signal) => fetch(`${server.baseUrl}${path}`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: text, signal });
};
const get = (path: (variant: number) => string): Call => (variant) => {
  const url = `${server.baseUrl}${path(variant)}`;
  return (signal) => fetch(url, { signal });
};

const auctionBody = (regs: Record<string, unknown>, user: Record<string, unknown> = {}) => ({
  id: 'a-1',
  imp: [{ id: 'imp-1', banner: { format: [{ w: 300, h: 250 }] }, ext: { prebid: { bidder: { alpha: {}, beta: {} } } } }],
  site: { page: 'https://example.com/', publisher: { id: 'pub-1' } },
  device: { ua: 'UA', ip: '198.51.100.7' },
  regs,
  user,
  tmax: 300,
});

interface Run {
  readonly requestMs: number;
  /** The slowest `/status` answer polled while the request ran. */
  readonly statusMs: number;
  readonly cpuMs: number;
  readonly status: number;
}

const measure = async (call: Call, variant: number): Promise<Run> => {
  const send = call(variant);
  let polling = true;
  let slowest = 0;
  let polled = 0;
  const poller = (async () => {
    while (polling || polled === 0) {
      const started = performance.now();
      const res = await fetch(`${server.baseUrl}/status`, { signal: AbortSignal.timeout(STALLED_MS * 2) }).catch(() => undefined);
      await res?.arrayBuffer();
      slowest = Math.max(slowest, res === undefined ? Infinity : performance.now() - started);
      polled++;
      await sleep(2);
    }
  })();
  while (polled === 0) await sleep(1);
  const cpuBefore = serverCpuMs();
  const started = performance.now();
  const res = await send(AbortSignal.timeout(STALLED_MS * 2)).catch(() => undefined);
  await res?.arrayBuffer();
  const requestMs = res === undefined ? Infinity : performance.now() - started;
  const cpuMs = serverCpuMs() - cpuBefore;
  polling = false;
  await poller;
  return { requestMs, statusMs: slowest, cpuMs, status: res?.status ?? 0 };
};

const median = (xs: number[]): number => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)]!;

/** Set once a case stalled the server: the cases after it fail at once rather than wait behind it. */
let stalledBy: string | undefined;

/**
 * One warm-up run, then runs each with a string of its own, until one meets both of the issue's
 * bounds (at least three, at most ten); the server's median CPU per request is held to its bound.
 * The runs are reported with `report`.
 */
const holdsTheBounds = async (call: Call, expectStatus: number, report: (line: string) => void): Promise<void> => {
  assert.equal(stalledBy, undefined, `the server is still stalled by an earlier case: ${stalledBy}`);
  const stalled = (run: Run): boolean => {
    if (run.requestMs < STALLED_MS) return false;
    stalledBy = `${run.requestMs.toFixed(0)} ms, /status ${run.statusMs.toFixed(0)} ms`;
    return true;
  };
  const withinBounds = (run: Run): boolean => run.requestMs < REQUEST_BOUND_MS && run.statusMs < STATUS_BOUND_MS;
  const warm = await measure(call, 1);
  assert.ok(!stalled(warm), `the route stalled: ${stalledBy}`);
  assert.equal(warm.status, expectStatus);
  const runs: Run[] = [];
  while (runs.length < MAX_RUNS && (runs.length < MIN_RUNS || !runs.some(withinBounds))) {
    const run = await measure(call, 2 + runs.length);
    assert.ok(!stalled(run), `the route stalled: ${stalledBy}`);
    assert.equal(run.status, expectStatus);
    runs.push(run);
  }
  const shown = runs.map((r) => `${r.requestMs.toFixed(1)}/${r.statusMs.toFixed(1)}/${r.cpuMs}`).join(' ');
  const why = `(runs, request/slowest status/server CPU ms: ${shown})`;
  report(why);
  assert.ok(median(runs.map((r) => r.cpuMs)) < CPU_BOUND_MS, `the server's median CPU per request ${why}`);
  assert.ok(runs.some(withinBounds), `no run answered within ${REQUEST_BOUND_MS} ms with /status within ${STATUS_BOUND_MS} ms ${why}`);
};

/** A `/cookie_sync` body as near `bytes` as the route takes (its limit is 64 KiB): the consent fills it. */
const syncBody = (bytes: number, variant: number) => {
  const consent = craftedTcf(Math.min(bytes, COOKIE_SYNC_MAX_BODY_BYTES) - 100, variant);
  return { bidders: ['alpha', 'beta'], gdpr: 1, gdpr_consent: bytes > COOKIE_SYNC_MAX_BODY_BYTES ? consent + 'A'.repeat(bytes - consent.length) : consent };
};

describe('a crafted consent string answers within 100 ms, /status within 50 ms meanwhile (real server process)', () => {
  before(async () => {
    // Every route once with an ordinary request, so that what is measured is the consent's cost.
    const signal = AbortSignal.timeout(10_000);
    await Promise.all([
      post('/cookie_sync', () => ({ bidders: ['alpha'], gdpr: 0 }))(0)(signal),
      post('/openrtb2/auction', () => auctionBody({ gdpr: 0 }))(0)(signal),
      get(() => '/openrtb2/amp?tag_id=banner-1')(0)(signal),
      get(() => '/setuid?bidder=alpha&uid=1')(0)(signal),
    ]);
  });

  it('POST /cookie_sync with a 64 KiB body (its limit), almost all gdpr_consent', async (t) => {
    await holdsTheBounds(post('/cookie_sync', (v) => syncBody(64 * KIB, v)), 200, (l) => t.diagnostic(l));
  });
  it('POST /cookie_sync with a 128 KiB gdpr_consent: 413, the body over the route limit', async (t) => {
    await holdsTheBounds(post('/cookie_sync', (v) => syncBody(128 * KIB, v)), 413, (l) => t.diagnostic(l));
  });

  for (const size of [64 * KIB, 128 * KIB]) {
    it(`POST /openrtb2/auction with a ${size / KIB} KiB user.consent`, async (t) => {
      await holdsTheBounds(post('/openrtb2/auction', (v) => auctionBody({ gdpr: 1 }, { consent: craftedTcf(size, v) })), 200, (l) => t.diagnostic(l));
    });
    it(`POST /openrtb2/auction with a ${size / KIB} KiB GPP string carrying it`, async (t) => {
      await holdsTheBounds(post('/openrtb2/auction', (v) => auctionBody({ gpp: gppWithTcf(craftedTcf(size, v)), gpp_sid: [2] })), 200, (l) => t.diagnostic(l));
    });
    // Past what a request head holds: node:http refuses the GET before openbid reads it.
    it(`GET /openrtb2/amp and /setuid with a ${size / KIB} KiB consent: 431`, async (t) => {
      await holdsTheBounds(get((v) => `/openrtb2/amp?tag_id=banner-1&gdpr_applies=true&consent_string=${craftedTcf(size, v)}`), 431, (l) => t.diagnostic(l));
      await holdsTheBounds(get((v) => `/setuid?bidder=alpha&uid=1&gdpr=1&gdpr_consent=${craftedTcf(size, v)}`), 431, (l) => t.diagnostic(l));
    });
  }

  it('GET /openrtb2/amp with a 12 KiB consent_string (decoded in full)', async (t) => {
    await holdsTheBounds(get((v) => `/openrtb2/amp?tag_id=banner-1&gdpr_applies=true&consent_string=${craftedTcf(12 * KIB, v)}`), 200, (l) => t.diagnostic(l));
  });

  it('GET /setuid with a 12 KiB gdpr_consent (decoded in full: no purpose 1 for the host, 451)', async (t) => {
    await holdsTheBounds(get((v) => `/setuid?bidder=alpha&uid=1&gdpr=1&gdpr_consent=${craftedTcf(12 * KIB, v)}`), 451, (l) => t.diagnostic(l));
  });

  it('a GPP header naming 20 million sections, on /cookie_sync, /setuid and the auction', async (t) => {
    await holdsTheBounds(post('/cookie_sync', (v) => ({ bidders: ['alpha'], gpp: gppHeaderRangeBomb(20_000_000, v), gpp_sid: [2] })), 400, (l) => t.diagnostic(l));
    await holdsTheBounds(get((v) => `/setuid?bidder=alpha&uid=1&gpp=${gppHeaderRangeBomb(20_000_000, v)}&gpp_sid=2`), 400, (l) => t.diagnostic(l));
    await holdsTheBounds(post('/openrtb2/auction', (v) => auctionBody({ gpp: gppHeaderRangeBomb(20_000_000, v), gpp_sid: [6] })), 200, (l) => t.diagnostic(l));
  });
});
