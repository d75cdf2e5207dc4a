import assert from 'node:assert/strict';
import { mkdtempSync, readFileSync, readdirSync, readlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, it } from 'node:test';
import { freePort, withPortInUse } from '../support/ports.js';
import { startRedis } from '../support/redis.js';
import { runCli, startServerProcess } from '../support/server-process.js';
import type { ServerProcess } from '../support/server-process.js';

// Server-process tests: run `npm run --silent build` first (they run dist/ through bin/openbid).
const pkg = JSON.parse(readFileSync(new URL('../../package.json', import.meta.url), 'utf8')) as { version: string };
const builtRevision = (JSON.parse(readFileSync(new URL('../../dist/build-info.json', import.meta.url), 'utf8')) as { revision: string }).revision;

/** The `address:port` of every TCP socket process `pid` listens on, from /proc (IPv4 and IPv6). */
const listeningAddresses = (pid: number | undefined): string[] => {
  const inodes = new Set<string>();
  for (const fd of readdirSync(`/proc/${pid}/fd`)) {
    try {
      const m = /^socket:\[(\d+)\]$/.exec(readlinkSync(`/proc/${pid}/fd/${fd}`));
      if (m?.[1] !== undefined) inodes.add(m[1]);
    } catch {
      // closed meanwhile
    }
  }
  const found: string[] = [];
  for (const table of ['/proc/net/tcp', '/proc/net/tcp6']) {
    for (const line of readFileSync(table, 'utf8').split('\n').slice(1)) {
      const cols = line.trim().split(/\s+/);
      // local_address is hex "ADDR:PORT"; state 0A is LISTEN; column 9 is the inode.
      if (cols[3] !== '0A' || !inodes.has(cols[9] ?? '')) continue;
      const [addr = '', port = ''] = (cols[1] ?? '').split(':');
      found.push(`${hexAddress(addr)}:${parseInt(port, 16)}`);
    }
  }
  return found.sort();
};
/** /proc's little-endian hex IPv4 address as dotted quads; IPv6 ones stay hex (none expected here). */
const hexAddress = (hex: string): string =>
  hex.length === 8 ? [6, 4, 2, 0].map((i) => parseInt(hex.slice(i, i + 2), 16)).join('.') : hex;

const get = (url: string): Promise<Response> => fetch(url, { headers: { connection: 'close' }, signal: AbortSignal.timeout(5000) });

const stop = async (server: ServerProcess): Promise<void> => {
  server.proc.kill('SIGTERM');
  assert.equal(await server.exited, 0, server.output());
};

describe('the admin listener', () => {
  it('with admin_port 0 is off: one listening socket, and /metrics, /currency/rates and /version on none', async () => {
    const server = await startServerProcess({ server: { admin_port: 0 } });
    try {
      assert.deepEqual(listeningAddresses(server.proc.pid), [`127.0.0.1:${server.port}`]);
      assert.doesNotMatch(server.output(), /admin on/);
      for (const path of ['/metrics', '/currency/rates', '/version']) assert.equal((await get(`${server.baseUrl}${path}`)).status, 404, path);
    } finally {
      await stop(server);
    }
  });

  it('serves /metrics on the public port too only with metrics_on_public_port: true', async () => {
    const server = await startServerProcess({ server: { metrics_on_public_port: true } });
    try {
      for (const base of [server.baseUrl, server.adminUrl]) {
        const metrics = await get(`${base}/metrics`);
        assert.equal(metrics.status, 200, base);
        assert.match(await metrics.text(), /openbid_http_requests_total/);
      }
    } finally {
      await stop(server);
    }
  });

  it('serves /metrics, /currency/rates and /version on 127.0.0.1 by default, and none of them on the public port', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'openbid-admin-'));
    const ratesFile = join(dir, 'rates.json');
    writeFileSync(ratesFile, JSON.stringify({ dataAsOf: '2024-03-01', conversions: { USD: { EUR: 0.9, GBP: 0.8 } } }));
    const adminPort = await freePort();
    const startedAt = Date.now();
    // The public port on every interface, so the admin's loopback address is its own default, not inherited.
    const server = await startServerProcess({
      server: { host: '0.0.0.0', admin_port: adminPort },
      auction: { currency: { file: ratesFile, refresh_interval_ms: 60_000 } },
    });
    const admin = `http://127.0.0.1:${adminPort}`;
    try {
      assert.deepEqual(listeningAddresses(server.proc.pid), [`0.0.0.0:${server.port}`, `127.0.0.1:${adminPort}`].sort());
      assert.match(server.output(), new RegExp(`admin on http://127\\.0\\.0\\.1:${adminPort}`));

      await get(`${server.baseUrl}/status`);
      const metrics = await get(`${admin}/metrics`);
      assert.equal(metrics.status, 200);
      assert.match(metrics.headers.get('content-type') ?? '', /^text\/plain; version=0\.0\.4/);
      const text = await metrics.text();
      assert.match(text, /openbid_http_requests_total\{[^}]*route="\/status"/);
      assert.match(text, /openbid_currency_rates_available 1\n/);

      const rates = await get(`${admin}/currency/rates`);
      assert.equal(rates.status, 200);
      assert.equal(rates.headers.get('content-type'), 'application/json');
      const body = (await rates.json()) as Record<string, unknown>;
      assert.deepEqual({ ...body, lastUpdated: undefined }, {
        active: true,
        source: ratesFile,
        fetchingIntervalNs: 60_000_000_000,
        lastUpdated: undefined,
        rates: { USD: { EUR: 0.9, GBP: 0.8 } },
      });
      const lastUpdated = Date.parse(String(body.lastUpdated));
      assert.ok(lastUpdated >= startedAt - 1000 && lastUpdated <= Date.now(), `lastUpdated ${String(body.lastUpdated)}`);

      const version = await get(`${admin}/version`);
      assert.equal(version.status, 200);
      assert.deepEqual(await version.json(), { revision: builtRevision, version: pkg.version });
      assert.notEqual(builtRevision, '');

      // Only those three there; the public routes stay public, and the admin ones stay off it.
      assert.equal((await get(`${admin}/status`)).status, 404);
      assert.equal((await fetch(`${admin}/version`, { method: 'POST', body: '{}' })).status, 405);
      for (const path of ['/metrics', '/currency/rates', '/version']) assert.equal((await get(`${server.baseUrl}${path}`)).status, 404, path);
    } finally {
      await stop(server);
    }
  });

  it('answers {"active": false} without a rates source', async () => {
    const adminPort = await freePort();
    const server = await startServerProcess({ server: { admin_port: adminPort } });
    try {
      assert.deepEqual(await (await get(`http://127.0.0.1:${adminPort}/currency/rates`)).json(), { active: false });
    } finally {
      await stop(server);
    }
  });

  it('an admin port in use exits 1 naming server.admin_port and OPENBID_SERVER__ADMIN_PORT', async () => {
    await withPortInUse(async (port) => {
      const run = runCli([], { OPENBID_SERVER__HOST: '127.0.0.1', OPENBID_SERVER__PORT: String(await freePort()), OPENBID_SERVER__ADMIN_PORT: String(port) });
      assert.equal(await run.exited, 1);
      assert.ok(run.output().includes(`openbid: cannot listen: 127.0.0.1:${port} is already in use; choose another port with server.admin_port or OPENBID_SERVER__ADMIN_PORT`), run.output());
    });
  });

  it('a public port in use, the admin port bound first, exits 1 naming server.port', async () => {
    await withPortInUse(async (port) => {
      const run = runCli([], { OPENBID_SERVER__HOST: '127.0.0.1', OPENBID_SERVER__PORT: String(port), OPENBID_SERVER__ADMIN_PORT: String(await freePort()) });
      assert.equal(await run.exited, 1);
      assert.ok(run.output().includes(`openbid: cannot listen: 127.0.0.1:${port} is already in use; choose another port with server.port or OPENBID_SERVER__PORT`), run.output());
    });
  });

  it('works with cluster workers: they share the admin port as they share the public one', async () => {
    const redis = await startRedis();
    const adminPort = await freePort();
    let server: ServerProcess | undefined;
    try {
      server = await startServerProcess({ server: { workers: 2, admin_port: adminPort }, cache: { backend: { type: 'redis', redis: { url: redis.url, timeout_ms: 2000 } } } });
      // Each worker binds the admin port before the public one, so the admin port answers as soon
      // as the public one does. Each connection goes to one worker or the other; every one must answer.
      for (let i = 0; i < 10; i++) {
        const res = await get(`http://127.0.0.1:${adminPort}/version`);
        assert.equal(res.status, 200);
        assert.equal(((await res.json()) as { version: string }).version, pkg.version);
      }
      const metrics = await get(`http://127.0.0.1:${adminPort}/metrics`);
      assert.equal(metrics.status, 200);
      assert.match(await metrics.text(), /openbid_nodejs_/);
    } finally {
      if (server) await stop(server);
      await redis.stop();
    }
  });
});
