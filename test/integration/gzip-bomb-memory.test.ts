import assert from 'node:assert/strict';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import { Pool } from 'undici';
import { gzipBomb, startFileBidderProcess } from '../support/gzip-bomb.js';
import type { BidderProcess } from '../support/gzip-bomb.js';
import { startMockBidder } from '../support/mock-bidder.js';
import type { MockBidder } from '../support/mock-bidder.js';
import { startServerProcess } from '../support/server-process.js';
import type { ServerProcess } from '../support/server-process.js';

/*
 * Gzip bombs under concurrency must not grow the server (issue 36: 300 auctions, 50 at a time,
 * against a bidder answering 1 MiB of gzip that inflates to 1 GiB, took the process to ~1.1 GB
 * RSS, and it stayed there). A real `bin/openbid`, the bomb bidder in a process of its own, the
 * server's peak RSS read from /proc (VmHWM: the kernel's own high-water mark, which no sampling
 * can miss). RSS is not timing-sensitive: a slow machine makes the flood longer, not larger.
 */

const AUCTIONS = 300;
const CONCURRENCY = 50;
const BOMB_INFLATED_MIB = 1024;
/** The bound. The server starts at ~125 MiB; the flood took it to ~205–250 MiB (~380 MiB when answers were read whole before inflating, ~1 GiB when bombs timed out on a loaded machine). */
const MAX_RSS_BYTES = 300 * 1024 * 1024;
/** The answer limit (`auction.max_response_bytes`'s default): the bomb's 1 MiB of gzip is under it, its output far over. */
const LIMIT = 2 * 1024 * 1024;
/** Generous deadlines: on a loaded machine a bomb must still be refused as too large (code 3), not time out (code 1). */
const TMAX_MS = 20_000;

const statusBytes = (pid: number, field: 'VmRSS' | 'VmHWM'): number => {
  const line = new RegExp(`^${field}:\\s+(\\d+) kB$`, 'm').exec(readFileSync(`/proc/${pid}/status`, 'utf8'));
  assert.ok(line, `${field} in /proc/${pid}/status`);
  return Number(line[1]) * 1024;
};
const mib = (bytes: number): string => `${(bytes / 1048576).toFixed(1)} MiB`;

type Answer = { seatbid?: { seat: string; bid: { price: number }[] }[]; ext?: { errors?: Record<string, { code: number; message: string }[]> } };

const auctionBody = (bidders: string[]): string =>
  JSON.stringify({
    id: 'bomb-flood',
    imp: [{ id: 'imp-1', banner: { format: [{ w: 300, h: 250 }] }, ext: { prebid: { bidder: Object.fromEntries(bidders.map((b) => [b, {}])) } } }],
    site: { page: 'https://publisher.example/' },
    tmax: TMAX_MS,
  });

describe('a gzip-bomb bidder under 50-way concurrency (real process)', () => {
  let dir = '';
  let bomb: BidderProcess | undefined;
  let fine: MockBidder | undefined;
  let server: ServerProcess | undefined;
  let pool: Pool | undefined;

  before(async () => {
    dir = mkdtempSync(join(tmpdir(), 'openbid-gzip-bomb-'));
    const file = join(dir, 'bomb.gz');
    writeFileSync(file, gzipBomb(BOMB_INFLATED_MIB));
    bomb = await startFileBidderProcess(file);
    fine = await startMockBidder({ gzip: true, body: { id: 'bomb-flood', seatbid: [{ bid: [{ id: 'b1', impid: 'imp-1', price: 1.5, adm: '<div>ad</div>', crid: 'c1', w: 300, h: 250 }] }], cur: 'USD' } });
    server = await startServerProcess({
      logging: { level: 'warn' },
      auction: { max_timeout_ms: TMAX_MS, max_response_bytes: LIMIT },
      adapters: { bomb: { adapter: 'generic', endpoint: bomb.url }, fine: { adapter: 'generic', endpoint: fine.url } },
    });
    pool = new Pool(server.baseUrl, { connections: CONCURRENCY, pipelining: 1 });
  });

  after(async () => {
    await pool?.close();
    server?.proc.kill('SIGKILL');
    await server?.exited;
    await Promise.all([bomb?.close(), fine?.close()]);
    if (dir !== '') rmSync(dir, { recursive: true, force: true });
  });

  const auction = async (bidders: string[]): Promise<{ status: number; answer: Answer }> => {
    const res = await pool!.request({ method: 'POST', path: '/openrtb2/auction', headers: { 'content-type': 'application/json' }, body: auctionBody(bidders), headersTimeout: 60_000, bodyTimeout: 60_000 });
    return { status: res.statusCode, answer: (await res.body.json()) as Answer };
  };

  /** Sends the flood; returns the first few answers that are not a 200 with code 3 for the bomb. */
  const flood = async (): Promise<string[]> => {
    const wrong: string[] = [];
    let next = 0;
    const worker = async (): Promise<void> => {
      for (let i = next++; i < AUCTIONS; i = next++) {
        let got: string;
        try {
          const { status, answer } = await auction(['bomb']);
          const codes = answer.ext?.errors?.bomb?.map((e) => e.code) ?? [];
          got = status === 200 && codes.length === 1 && codes[0] === 3 ? 'ok' : `${status} ${JSON.stringify(answer).slice(0, 200)}`;
        } catch (err) {
          got = `failed: ${(err as Error).message}`;
        }
        if (got !== 'ok' && wrong.length < 5) wrong.push(`auction ${i}: ${got}`);
      }
    };
    await Promise.all(Array.from({ length: CONCURRENCY }, worker));
    return wrong;
  };

  it(`${AUCTIONS} auctions ${CONCURRENCY} at a time keep the server under 300 MiB RSS, each bomb refused with code 3, and it serves on`, { timeout: 110_000 }, async (t) => {
    const pid = server!.proc.pid!;
    const atStart = statusBytes(pid, 'VmRSS');
    let sampledPeak = atStart;
    const sampler = setInterval(() => (sampledPeak = Math.max(sampledPeak, statusBytes(pid, 'VmRSS'))), 20);
    let wrong: string[];
    try {
      wrong = await flood();
    } finally {
      clearInterval(sampler);
    }
    assert.equal(server!.proc.exitCode, null, `the server died:\n${server!.output().slice(-2000)}`);
    const peak = statusBytes(pid, 'VmHWM');
    t.diagnostic(`peak RSS ${mib(peak)} (sampled ${mib(sampledPeak)}; ${mib(atStart)} before the flood)`);
    assert.ok(peak < MAX_RSS_BYTES, `peak RSS ${mib(peak)} (sampled ${mib(sampledPeak)}; ${mib(atStart)} before the flood)`);
    assert.deepEqual(wrong, []);

    // It serves on: the other bidder's bid comes through beside the bomb's refusal.
    const { status, answer } = await auction(['bomb', 'fine']);
    assert.equal(status, 200);
    assert.deepEqual(answer.seatbid?.map((s) => [s.seat, s.bid.map((b) => b.price)]), [['fine', [1.5]]]);
    assert.deepEqual(answer.ext?.errors?.bomb?.map((e) => e.code), [3]);
    assert.equal((await fetch(`${server!.baseUrl}/status`)).status, 204);
  });
});
