import assert from 'node:assert/strict';
import { request } from 'node:http';
import { describe, it } from 'node:test';
import { startMockBidder } from '../support/mock-bidder.js';
import { waitFor } from '../support/ports.js';
import { startRedis } from '../support/redis.js';
import { startServerProcess } from '../support/server-process.js';
import { STARTUP_TIMEOUT_MS } from '../support/time-bounds.js';

interface Answer {
  readonly status: number;
  readonly text: string;
}

/**
 * One request on a connection of its own (no agent: `Connection: close`), answered within 30 s.
 * node:http rather than fetch: Node 24's fetch once failed an internal assertion of its parser
 * (`Parser.finish`) on one of 100 connections closing at once.
 */
const onItsOwnConnection = (method: 'GET' | 'POST', url: string, body?: string): Promise<Answer> =>
  new Promise((resolve, reject) => {
    const req = request(url, { method, agent: false, timeout: 30_000, headers: body === undefined ? {} : { 'content-type': 'application/json' } }, (res) => {
      let text = '';
      res.setEncoding('utf8');
      res.on('data', (chunk: string) => (text += chunk));
      res.on('end', () => resolve({ status: res.statusCode ?? 0, text }));
      res.on('error', reject);
    });
    req.on('timeout', () => req.destroy(new Error(`${method} ${url}: no answer in 30 s`)));
    req.on('error', reject);
    req.end(body);
  });

/** Sample lines keyed by series (name and labels), with how often each appears. */
const seriesCounts = (text: string): Map<string, number> => {
  const counts = new Map<string, number>();
  for (const line of text.split('\n')) {
    if (line === '' || line.startsWith('#')) continue;
    const key = line.slice(0, line.lastIndexOf(' '));
    counts.set(key, (counts.get(key) ?? 0) + 1);
  }
  return counts;
};

const sample = (text: string, series: string): number | undefined => {
  const line = text.split('\n').find((l) => l.startsWith(`${series} `));
  return line === undefined ? undefined : Number(line.slice(series.length + 1));
};

/** The sum of every sample of `name` whose labels include `label`. */
const sumOf = (text: string, name: string, label: string): number =>
  text
    .split('\n')
    .filter((l) => l.startsWith(`${name}{`) && l.includes(label))
    .reduce((sum, l) => sum + Number(l.slice(l.lastIndexOf(' ') + 1)), 0);

describe('metrics with server.workers: 2', () => {
  it('a scrape of any worker answers the whole group once', async () => {
    const redis = await startRedis();
    // Redis is stopped even when the server never comes up: a Redis left running holds the file open.
    try {
      const server = await startServerProcess({ server: { workers: 2 }, cache: { backend: { type: 'redis', redis: { url: redis.url, timeout_ms: 2000 } } } });
      try {
        const listening = () => new Set(server.output().split('\n').filter((l) => l.includes(' listening on ')).map((l) => /"pid":(\d+)/.exec(l)?.[1])).size;
        await waitFor('both workers listening', async () => listening() === 2, STARTUP_TIMEOUT_MS);
        // The primary hands new connections to the workers in turn: one per request spreads them.
        const SENT = 40;
        for (let i = 0; i < SENT; i++) {
          const res = await fetch(`${server.baseUrl}/cache`, { method: 'POST', body: JSON.stringify({ puts: [{ type: 'xml', value: `<v${i}/>` }] }), headers: { connection: 'close' } });
          assert.equal(res.status, 200);
        }
        const series = 'openbid_http_requests_total{route="/cache",method="POST",status="200"}';
        // Several scrapes, each on a new connection, so both workers answer some of them.
        for (let scrape = 0; scrape < 6; scrape++) {
          const res = await fetch(`${server.adminUrl ?? assert.fail('no admin listener')}/metrics`, { headers: { connection: 'close' } });
          assert.equal(res.status, 200);
          const text = await res.text();
          const total = sample(text, series);
          assert.ok(total !== undefined, `no ${series} in:\n${text.slice(0, 2000)}`);
          assert.equal(total, SENT, `scrape ${scrape}: one worker's count, not the group's?`);
          assert.equal(sample(text, 'openbid_http_request_duration_seconds_count{route="/cache",method="POST"}'), SENT);
          assert.equal(sample(text, 'openbid_cache_puts_total{type="xml",result="stored"}'), SENT);
          assert.equal(sample(text, 'openbid_cluster_metrics_workers'), 2);
          for (const [key, n] of seriesCounts(text)) assert.equal(n, 1, `${key} appears ${n} times`);
          for (const [key, n] of seriesCounts(text.split('\n').filter((l) => l.startsWith('# TYPE ')).map((l) => `${l} 0`).join('\n'))) assert.equal(n, 1, `${key} appears ${n} times`);
        }
      } finally {
        server.proc.kill('SIGTERM');
        assert.equal(await server.exited, 0);
      }
    } finally {
      await redis.stop();
    }
  });

  it('answers 100 parallel scrapes 200, each with the whole group (one gathering serves the scrapes that arrive while it runs)', { timeout: 90_000 }, async () => {
    const redis = await startRedis();
    const bidder = await startMockBidder({ body: { id: 'r', seatbid: [{ bid: [{ id: 'b1', impid: 'imp-1', price: 1.5, adm: '<div/>', crid: 'c', w: 300, h: 250 }] }] } });
    // A host's worth of bidders, so a scrape carries about what a serving host's does (~90 KiB of text).
    const codes = Array.from({ length: 24 }, (_, i) => `b${String(i).padStart(2, '0')}`);
    try {
      const server = await startServerProcess({
        server: { workers: 2 },
        cache: { backend: { type: 'redis', redis: { url: redis.url, timeout_ms: 2000 } } },
        adapters: Object.fromEntries(codes.map((code) => [code, { adapter: 'generic', endpoint: bidder.url }])),
      });
      try {
        const listening = () => new Set(server.output().split('\n').filter((l) => l.includes(' listening on ')).map((l) => /"pid":(\d+)/.exec(l)?.[1])).size;
        await waitFor('both workers listening', async () => listening() === 2, 10_000);
        const AUCTIONS = 10;
        const auction = { id: 'a', site: { page: 'https://news.example/' }, imp: [{ id: 'imp-1', banner: { format: [{ w: 300, h: 250 }] }, ext: { prebid: { bidder: Object.fromEntries(codes.map((c) => [c, {}])) } } }], tmax: 2000 };
        for (let i = 0; i < AUCTIONS; i++) {
          const res = await onItsOwnConnection('POST', `${server.baseUrl}/openrtb2/auction`, JSON.stringify(auction));
          assert.equal(res.status, 200, res.text);
        }
        const admin = server.adminUrl ?? assert.fail('no admin listener');
        // Warm-up: both workers have answered a scrape once.
        for (let i = 0; i < 4; i++) assert.equal((await onItsOwnConnection('GET', `${admin}/metrics`)).status, 200);

        const SCRAPES = 100;
        const started = Date.now();
        // Each on a connection of its own, so node:cluster spreads them over both workers.
        const scrape = (): Promise<Answer> => onItsOwnConnection('GET', `${admin}/metrics`);
        const answers = await Promise.all(Array.from({ length: SCRAPES }, scrape));
        const tookMs = Date.now() - started;
        // A 500 (the primary too slow) and a 200 without a worker's values (a worker too slow) both fail.
        const outcomes = new Map<string, number>();
        for (const { status, text } of answers) {
          const outcome = status !== 200 ? String(status) : `200 with ${sample(text, 'openbid_cluster_metrics_workers') ?? 'no'} workers`;
          outcomes.set(outcome, (outcomes.get(outcome) ?? 0) + 1);
        }
        assert.deepEqual([...outcomes], [['200 with 2 workers', SCRAPES]], `${SCRAPES} parallel scrapes (in ${tookMs} ms)`);
        for (const { text } of answers) {
          for (const code of codes) assert.equal(sumOf(text, 'openbid_bidder_requests_total', `bidder="${code}"`), AUCTIONS, code);
          assert.equal(sample(text, 'openbid_cluster_metrics_workers_missed_total'), 0);
        }
        process.stderr.write(`# ${SCRAPES} parallel scrapes of ${Math.round((answers[0]?.text.length ?? 0) / 1024)} KiB: ${tookMs} ms\n`);
      } finally {
        server.proc.kill('SIGTERM');
        assert.equal(await server.exited, 0);
      }
    } finally {
      await Promise.all([bidder.close(), redis.stop()]);
    }
  });
});
