import assert from 'node:assert/strict';
import { createServer } from 'node:http';
import type { Server } from 'node:http';
import { after, before, describe, it } from 'node:test';
import pino from 'pino';
import type { Logger } from '../../src/core/logger.js';
import { silentLogger } from '../../src/core/logger.js';
import type { Metrics } from '../../src/metrics/metrics.js';
import { noopMetrics } from '../../src/metrics/noop.js';
import { createPrometheusMetrics } from '../../src/metrics/prometheus.js';
import { createStoredDataSources, migrateStoredData } from '../../src/stored/backends/stored-data.js';
import type { StoredDataSources } from '../../src/stored/backends/stored-data.js';
import { startPostgres } from '../support/postgres.js';
import type { PostgresServer } from '../support/postgres.js';
import { startServerProcess } from '../support/server-process.js';
import type { ServerProcess } from '../support/server-process.js';

/*
 * Stored data changed in Postgres shows on every instance without waiting for the cache TTL
 * (300 s here): two `bin/openbid` processes on one migrated Postgres, each having cached a stored
 * request and an account, then SQL changes them; both must serve the new version within
 * PROPAGATION_BOUND_MS (docs/stored-data.md, "Changes in Postgres"). Each test prints the
 * figure it measured. Needs `npm run build`.
 */

const PROPAGATION_BOUND_MS = 1_000;
/** How often each server is asked while waiting for a change to show. */
const PROBE_EVERY_MS = 5;

/** An auction naming stored request `tag-1` under account `pub-1`, with debug output (`test: 1`). */
const AUCTION = JSON.stringify({
  id: 'a',
  site: { page: 'https://news.example/a', publisher: { id: 'pub-1' } },
  imp: [{ id: 'imp-1', banner: { format: [{ w: 300, h: 250 }] }, ext: { prebid: { bidder: { alpha: {} } } } }],
  test: 1,
  ext: { prebid: { storedrequest: { id: 'tag-1' } } },
});

/**
 * What a server serves now: the stored request's `site.keywords` (or `missing`), and whether
 * account `pub-1` allows debug output.
 */
const served = async (server: ServerProcess): Promise<string> => {
  const res = await fetch(`${server.baseUrl}/openrtb2/auction`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: AUCTION, signal: AbortSignal.timeout(2_000) });
  const text = await res.text();
  if (res.status === 400 && /tag-1/.test(text)) return 'missing';
  assert.equal(res.status, 200, text);
  const body = JSON.parse(text) as { ext?: { debug?: { resolvedrequest?: { site?: { keywords?: string } } } } };
  const debug = body.ext?.debug;
  return debug === undefined ? 'no-debug' : (debug.resolvedrequest?.site?.keywords ?? 'no keywords');
};

/**
 * Asks every server until each serves `want`, at most `boundMs` after the call; returns the
 * milliseconds each took until the answer came, and how long that last auction itself took (fails
 * naming what each served last).
 */
const untilServed = async (servers: ServerProcess[], want: string, boundMs = PROPAGATION_BOUND_MS): Promise<{ took: number; auctionMs: number }[]> => {
  const start = performance.now();
  return Promise.all(
    servers.map(async (server, i) => {
      let last = '';
      // Bounded in time and in count (a probe takes at least PROBE_EVERY_MS).
      for (let probe = 0; probe <= boundMs / PROBE_EVERY_MS; probe++) {
        const probeStart = performance.now();
        last = await served(server);
        const took = performance.now() - start;
        if (last === want) return { took, auctionMs: performance.now() - probeStart };
        if (took > boundMs) break;
        await new Promise((r) => setTimeout(r, PROBE_EVERY_MS));
      }
      assert.fail(`server ${i} still served ${JSON.stringify(last)}, not ${JSON.stringify(want)}, ${Math.round(performance.now() - start)} ms after the change`);
    }),
  );
};

const report = (what: string, seen: { took: number; auctionMs: number }[]): void =>
  console.log(`# ${what}: served after ${seen.map((s) => `${s.took.toFixed(1)} ms (that auction took ${s.auctionMs.toFixed(1)} ms)`).join(', ')}`);

describe('Postgres changes reach every instance (two real processes)', () => {
  let db: PostgresServer;
  let bidder: Server;
  let servers: ServerProcess[] = [];

  const config = (changes: { change_notifications: boolean; change_poll_interval_seconds: number }, bidderPort: number) => ({
    adapters: { alpha: { adapter: 'generic', endpoint: `http://127.0.0.1:${bidderPort}/bid` } },
    stored_requests: {
      filesystem: { directory: '' },
      order: ['postgres'],
      postgres: { connection_string: db.url, timeout_ms: 1_000, ...changes },
      cache: { ttl_seconds: 300, miss_ttl_seconds: 300 },
    },
    stored_imps: { filesystem: { directory: '' } },
    accounts: { postgres: { enabled: true } },
  });

  const start = async (changes: Parameters<typeof config>[0]): Promise<ServerProcess[]> => {
    const port = (bidder.address() as { port: number }).port;
    const started = await Promise.all([startServerProcess(config(changes, port)), startServerProcess(config(changes, port))]);
    servers.push(...started);
    return started;
  };
  const stop = async (which: ServerProcess[]): Promise<void> => {
    for (const s of which) s.proc.kill('SIGKILL');
    await Promise.all(which.map((s) => s.exited));
    servers = servers.filter((s) => !which.includes(s));
  };
  const setRequest = (keywords: string) =>
    db.admin.query(
      `INSERT INTO stored_requests (id, data) VALUES ('tag-1', $1) ON CONFLICT (account_id, id) DO UPDATE SET data = EXCLUDED.data, updated_at = now()`,
      [JSON.stringify({ site: { keywords } })],
    );

  before(async () => {
    db = await startPostgres();
    assert.deepEqual(await migrateStoredData({ connection_string: db.url, pool_size: 1, timeout_ms: 5_000 }, silentLogger), [1, 2]);
    // A bidder with nothing to bid: the auction is only the way to see the stored data.
    bidder = createServer((_, res) => res.writeHead(204).end());
    await new Promise<void>((resolve) => bidder.listen(0, '127.0.0.1', resolve));
  });
  after(async () => {
    await stop(servers);
    await new Promise((r) => bidder?.close(r));
    await db?.stop();
  });

  it('notifications: an update, a delete, a re-insert and an account change show on both within the bound', async () => {
    await setRequest('v1');
    await db.admin.query(`INSERT INTO accounts (id, config) VALUES ('pub-1', '{"auction":{"debug_allow":true}}')`);
    const both = await start({ change_notifications: true, change_poll_interval_seconds: 0 });
    await untilServed(both, 'v1', 10_000);
    // One dedicated listening connection per process.
    const listeners = await db.admin.query<{ n: number }>(`SELECT count(*)::int AS n FROM pg_stat_activity WHERE application_name = 'openbid-listen'`);
    assert.equal(listeners.rows[0]?.n, 2);

    // Cached in both now: without the notification they would serve v1 for 300 s.
    await setRequest('v2');
    report('update', await untilServed(both, 'v2'));
    await db.admin.query(`DELETE FROM stored_requests WHERE id = 'tag-1'`);
    report('delete', await untilServed(both, 'missing'));
    // The miss was remembered (miss TTL 300 s): the insert must drop it too.
    await setRequest('v3');
    report('insert after a remembered miss', await untilServed(both, 'v3'));
    await db.admin.query(`UPDATE accounts SET config = '{"auction":{"debug_allow":false}}' WHERE id = 'pub-1'`);
    report('account update', await untilServed(both, 'no-debug'));
    await db.admin.query(`UPDATE accounts SET config = '{"auction":{"debug_allow":true}}' WHERE id = 'pub-1'`);
    await untilServed(both, 'v3');

    // The listening connections are killed and a change is made while they are down: each
    // process reconnects (backoff from 250 ms) and then drops everything it cached.
    const killed = await db.admin.query(`SELECT pg_terminate_backend(pid) FROM pg_stat_activity WHERE application_name = 'openbid-listen'`);
    assert.equal(killed.rowCount, 2);
    await setRequest('v4');
    report('update while the listeners were down', await untilServed(both, 'v4', 5_000));
    for (const s of both) assert.match(s.output(), /postgres change notifications lost/);
    await stop(both);
  });

  /** Stored data in this process on the test database, listening for notifications (no poll). */
  const inProcess = (logger: Logger = silentLogger, metrics: Metrics = noopMetrics): Promise<StoredDataSources> =>
    createStoredDataSources({
      storedRequests: {
        filesystem: { directory: '' },
        postgres: { connection_string: db.url, pool_size: 2, timeout_ms: 1_000, change_notifications: true, change_poll_interval_seconds: 0 },
        http: { endpoint: '', timeout_ms: 100 },
        order: ['postgres'],
        cache: { ttl_seconds: 300, miss_ttl_seconds: 300, max_entries: 100, max_bytes: 1024 * 1024 },
        max_id_length: 256,
      },
      storedImps: { filesystem: { directory: '' } },
      accounts: { by_id: {}, filesystem: { directory: '' }, postgres: { enabled: false }, http: { endpoint: '', timeout_ms: 100 } },
      logger,
      metrics,
    });
  /** Stored request `tag-1`'s `site.keywords` as `sources` serve it (from their cache when there). */
  const keywordsOf = async (sources: StoredDataSources): Promise<string | undefined> => {
    const text = (await sources.storedRequests.fetchRequests(['tag-1'], [])).requests.get('tag-1');
    return text === undefined ? undefined : (JSON.parse(text) as { site: { keywords: string } }).site.keywords;
  };
  /**
   * Until `sources` listen: a cached entry changes only once the listener drops it (a notification,
   * or the drop of everything that follows its LISTEN), so `keywords` showing over a cached older
   * version means it is up.
   */
  const untilListening = async (sources: StoredDataSources, keywords: string): Promise<void> => {
    await setRequest(`${keywords}-before`);
    await keywordsOf(sources);
    await setRequest(keywords);
    const startBy = performance.now() + 10_000;
    while ((await keywordsOf(sources)) !== keywords && performance.now() < startBy) await new Promise((r) => setTimeout(r, 10));
    assert.equal(await keywordsOf(sources), keywords, 'not listening 10 s after the start');
  };

  it('in process, from commit to the new version served: 20 updates, median and worst printed, each within the bound', async () => {
    const sources = await inProcess();
    try {
      const keywords = (): Promise<string | undefined> => keywordsOf(sources);
      await untilListening(sources, 'm-start');
      const took: number[] = [];
      for (let i = 0; i < 20; i++) {
        assert.equal(await keywords(), i === 0 ? 'm-start' : `m${i - 1}`, 'cached before the change');
        await setRequest(`m${i}`);
        const committed = performance.now();
        for (let probe = 0; probe < PROPAGATION_BOUND_MS && (await keywords()) !== `m${i}`; probe++) await new Promise((r) => setTimeout(r, 1));
        took.push(performance.now() - committed);
        assert.equal(await keywords(), `m${i}`, `update ${i} not served ${PROPAGATION_BOUND_MS} probes after its commit`);
      }
      took.sort((a, b) => a - b);
      console.log(`# in process, commit to served: median ${took[10]?.toFixed(2)} ms, worst ${took[19]?.toFixed(2)} ms of 20`);
      assert.ok((took[19] ?? Infinity) < PROPAGATION_BOUND_MS);
    } finally {
      await sources.close();
    }
  });

  it('a NOTIFY that is not the trigger\'s is logged (throttled), counted and changes nothing; a valid one still drops its entry', async () => {
    const lines: string[] = [];
    const logger = pino({ level: 'warn' }, { write: (line: string) => void lines.push(line) });
    const metrics = createPrometheusMetrics({ processMetrics: false });
    const ignored = async (): Promise<number> => Number(/^openbid_stored_data_changes_ignored_total\{via="notify"\} (\d+)$/m.exec((await metrics.render()).body)?.[1] ?? 0);
    const sources = await inProcess(logger, metrics);
    try {
      await untilListening(sources, 'n-cached');
      // Notifications come in commit order on one connection: once an invalid one sent now is
      // counted, the earlier updates' are handled, and none of them can drop the entry cached next.
      await db.admin.query(`SELECT pg_notify('openbid_stored_data', 'not json')`);
      const barrierBy = performance.now() + 5_000;
      while ((await ignored()) < 1 && performance.now() < barrierBy) await new Promise((r) => setTimeout(r, 10));
      assert.equal(await ignored(), 1, 'the first invalid notification counted');
      assert.equal(await keywordsOf(sources), 'n-cached');
      // The row changes behind the cache's back (no trigger, so no notification): only an
      // invalidation can make the new version show.
      await db.admin.query('ALTER TABLE stored_requests DISABLE TRIGGER openbid_changed');
      await setRequest('n-silent');
      await db.admin.query('ALTER TABLE stored_requests ENABLE TRIGGER openbid_changed');
      assert.equal(await keywordsOf(sources), 'n-cached');

      const garbage = ['not json', '', '[]', '{"k":"table","a":"","i":"tag-1"}', '{"k":"request","a":"","i":1}', '{"k":"request","a":""}', '{"k":"__proto__","a":"","i":"tag-1"}'];
      for (const payload of garbage) await db.admin.query(`SELECT pg_notify('openbid_stored_data', $1)`, [payload]);
      // A dropped cache shows at the end of the turn a notification comes in (milliseconds).
      await new Promise((r) => setTimeout(r, 300));
      assert.equal(await keywordsOf(sources), 'n-cached', 'an invalid notification dropped the cached entry');
      const countBy = performance.now() + 5_000;
      while ((await ignored()) < garbage.length + 1 && performance.now() < countBy) await new Promise((r) => setTimeout(r, 10));
      assert.equal(await ignored(), garbage.length + 1, 'every invalid notification counted');
      assert.equal(await keywordsOf(sources), 'n-cached', 'an invalid notification dropped the cached entry');
      const warned = lines.filter((l) => l.includes('not a change the openbid trigger writes'));
      assert.equal(warned.length, 1, `one line per 5 s, not one per notification:\n${lines.join('')}`);
      assert.equal((JSON.parse(warned[0] ?? '{}') as { payload?: string }).payload, 'not json');

      const sent = performance.now();
      await db.admin.query(`SELECT pg_notify('openbid_stored_data', $1)`, [JSON.stringify({ k: 'request', a: '', i: 'tag-1' })]);
      while ((await keywordsOf(sources)) !== 'n-silent' && performance.now() - sent < PROPAGATION_BOUND_MS) await new Promise((r) => setTimeout(r, 1));
      const took = performance.now() - sent;
      assert.equal(await keywordsOf(sources), 'n-silent', 'the valid notification did not drop the entry');
      assert.equal(await ignored(), garbage.length + 1);
      console.log(`# ${garbage.length + 1} invalid notifications: ${garbage.length + 1} counted, ${warned.length} line logged, the cached entry kept; a valid one served the new version after ${took.toFixed(1)} ms`);
    } finally {
      await sources.close();
    }
  });

  it('the poll alone (notifications off) shows a change within its interval', async () => {
    await setRequest('p1');
    const both = await start({ change_notifications: false, change_poll_interval_seconds: 1 });
    await untilServed(both, 'p1', 10_000);
    const none = await db.admin.query<{ n: number }>(`SELECT count(*)::int AS n FROM pg_stat_activity WHERE application_name = 'openbid-listen'`);
    assert.equal(none.rows[0]?.n, 0);
    await setRequest('p2');
    // Interval 1 s, plus a poll's own time and the probe's.
    report('update seen by the poll', await untilServed(both, 'p2', 2_500));
    await stop(both);
  });
});
