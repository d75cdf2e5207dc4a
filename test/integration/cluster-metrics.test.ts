import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { waitFor } from '../support/ports.js';
import { startRedis } from '../support/redis.js';
import { startServerProcess } from '../support/server-process.js';
import { STARTUP_TIMEOUT_MS } from '../support/time-bounds.js';

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
          const res = await fetch(`${server.baseUrl}/metrics`, { headers: { connection: 'close' } });
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
});
