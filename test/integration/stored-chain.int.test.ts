import assert from 'node:assert/strict';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import { isAppError } from '../../src/core/app-error.js';
import type { Logger } from '../../src/core/logger.js';
import { silentLogger } from '../../src/core/logger.js';
import { noopMetrics } from '../../src/metrics/noop.js';
import { createStoredDataSources, migrateStoredData } from '../../src/stored/backends/stored-data.js';
import type { StoredDataOptions, StoredDataSources } from '../../src/stored/backends/stored-data.js';
import { freePort, waitFor } from '../support/ports.js';
import { startPostgres } from '../support/postgres.js';
import type { PostgresServer } from '../support/postgres.js';
import { runCli } from '../support/server-process.js';
import { startStoredHttpServer } from '../support/stored-http-server.js';
import type { StoredHttpServer } from '../support/stored-http-server.js';

/*
 * The stored data sources as the server builds them: files, a real Postgres and a real HTTP
 * service, chained in the configured order behind the cache.
 */

const PG_TIMEOUT_MS = 200;

const recordingLogger = () => {
  const warnings: string[] = [];
  const logger: Logger = { ...silentLogger, warn: (obj: unknown) => void warnings.push((obj as { source?: string }).source ?? 'other'), child: () => logger };
  return { logger, warnings };
};

describe('stored data sources: files, Postgres and HTTP in a chain', () => {
  let db: PostgresServer;
  let http: StoredHttpServer;
  let root: string;
  const dirs = { requests: '', imps: '', accounts: '' };
  const open: StoredDataSources[] = [];

  const options = (over: { postgres?: string; http?: string; order?: StoredDataOptions['storedRequests']['order']; logger?: Logger; accountsPostgres?: boolean } = {}): StoredDataOptions => ({
    storedRequests: {
      filesystem: { directory: dirs.requests },
      postgres: { connection_string: over.postgres ?? db.url, pool_size: 2, timeout_ms: PG_TIMEOUT_MS, change_notifications: false, change_poll_interval_seconds: 0 },
      http: { endpoint: over.http ?? http.endpoint, timeout_ms: 300 },
      order: over.order ?? ['filesystem', 'postgres', 'http'],
      cache: { ttl_seconds: 300, miss_ttl_seconds: 10, max_entries: 1000, max_bytes: 1024 * 1024 },
      max_id_length: 256,
    },
    storedImps: { filesystem: { directory: dirs.imps } },
    accounts: {
      by_id: { 'from-config': { auction: { targeting_prefix: 'cfg' } } },
      filesystem: { directory: dirs.accounts },
      postgres: { enabled: over.accountsPostgres ?? true },
      http: { endpoint: over.http ?? http.endpoint, timeout_ms: 300 },
    },
    logger: over.logger ?? silentLogger,
    metrics: noopMetrics,
  });
  const sources = async (over: Parameters<typeof options>[0] = {}): Promise<StoredDataSources> => {
    const s = await createStoredDataSources(options(over));
    open.push(s);
    return s;
  };

  before(async () => {
    [db, http] = await Promise.all([startPostgres(), startStoredHttpServer()]);
    root = mkdtempSync(join(tmpdir(), 'openbid-chain-'));
    for (const k of ['requests', 'imps', 'accounts'] as const) {
      dirs[k] = join(root, k);
      mkdirSync(dirs[k]);
    }
    assert.deepEqual(await migrateStoredData({ connection_string: db.url, pool_size: 1, timeout_ms: 1000 }, silentLogger), [1, 2]);
    writeFileSync(join(dirs.requests, 'everywhere.json'), '{"from":"file"}');
    writeFileSync(join(dirs.imps, 'imp-file.json'), '{"from":"file"}');
    writeFileSync(join(dirs.accounts, 'acct-file.json'), '{"events":{"enabled":false}}');
    await db.admin.query(`INSERT INTO stored_requests (id, data) VALUES ('everywhere', '{"from":"postgres"}'), ('pg-only', '{"from":"postgres"}')`);
    await db.admin.query(`INSERT INTO stored_imps (id, data) VALUES ('imp-pg', '{"from":"postgres"}')`);
    await db.admin.query(`INSERT INTO accounts (id, config) VALUES ('acct-pg', '{"auction":{"price_granularity":"dense"}}'), ('acct-file', '{}')`);
    http.requests.set('everywhere', { from: 'http' });
    http.requests.set('pg-only', { from: 'http' });
    http.requests.set('http-only', { from: 'http' });
    http.accounts.set('acct-http', { auction: { debug_allow: false } });
  });
  after(async () => {
    await Promise.all(open.map((s) => s.close()));
    await Promise.all([db.stop(), http.close()]);
    rmSync(root, { recursive: true, force: true });
  });

  const from = (text: string | undefined): unknown => (text === undefined ? undefined : (JSON.parse(text) as { from: string }).from);

  it('answers each id from the first source in the configured order that has it', async () => {
    const s = await sources();
    const found = await s.storedRequests.fetchRequests(['everywhere', 'pg-only', 'http-only', 'nowhere'], ['imp-file', 'imp-pg']);
    assert.deepEqual(
      ['everywhere', 'pg-only', 'http-only'].map((id) => from(found.requests.get(id))),
      ['file', 'postgres', 'http'],
    );
    assert.deepEqual([from(found.imps.get('imp-file')), from(found.imps.get('imp-pg'))], ['file', 'postgres']);
    assert.deepEqual(found.missing, ['nowhere']);

    const reversed = await sources({ order: ['http', 'postgres', 'filesystem'] });
    assert.equal(from((await reversed.storedRequests.fetchRequests(['everywhere'], [])).requests.get('everywhere')), 'http');
  });

  it('takes accounts from the configuration first, then the sources in order, each checked', async () => {
    const s = await sources();
    assert.deepEqual(s.accounts.fetch('from-config'), { auction: { targeting_prefix: 'cfg' } }, 'the configuration answers directly');
    assert.deepEqual(await s.accounts.fetch('acct-file'), { events: { enabled: false } });
    assert.deepEqual(await s.accounts.fetch('acct-pg'), { auction: { price_granularity: 'dense' } });
    assert.deepEqual(await s.accounts.fetch('acct-http'), { auction: { debug_allow: false } });
    assert.equal(await s.accounts.fetch('acct-none'), undefined);
  });

  it('serves a hot id from memory: the sources are asked once', async () => {
    const s = await sources({ order: ['http'] });
    http.calls.length = 0;
    await Promise.all(Array.from({ length: 20 }, () => s.storedRequests.fetchRequests(['http-only'], [])));
    for (let i = 0; i < 20; i++) assert.equal(from((await s.storedRequests.fetchRequests(['http-only'], [])).requests.get('http-only')), 'http');
    for (let i = 0; i < 5; i++) assert.equal(await s.storedRequests.fetchRequests(['http-unknown'], []).then((f) => f.missing[0]), 'http-unknown');
    for (let i = 0; i < 5; i++) await s.accounts.fetch('acct-http');
    assert.equal(http.calls.length, 3, `calls: ${http.calls.join(' ')}`);
  });

  it('serves a changed file without a restart, though the old one was cached', async () => {
    const s = await sources();
    writeFileSync(join(dirs.requests, 'edited.json'), '{"from":"first"}');
    assert.equal(from((await s.storedRequests.fetchRequests(['edited'], [])).requests.get('edited')), 'first');
    writeFileSync(join(dirs.requests, 'edited.json'), '{"from":"second"}');
    await waitFor('the edited file to be served', async () => from((await s.storedRequests.fetchRequests(['edited'], [])).requests.get('edited')) === 'second');
    writeFileSync(join(dirs.accounts, 'acct-edited.json'), '{"events":{"enabled":true}}');
    assert.deepEqual(await s.accounts.fetch('acct-edited'), { events: { enabled: true } });
    writeFileSync(join(dirs.accounts, 'acct-edited.json'), '{"events":{"enabled":false}}');
    await waitFor('the edited account to be served', async () => (await s.accounts.fetch('acct-edited'))?.events?.enabled === false);
  });

  it('passes over a Postgres that is down: the next source answers', async () => {
    const { logger, warnings } = recordingLogger();
    const s = await sources({ postgres: `postgres://openbid@127.0.0.1:${await freePort()}/postgres`, logger });
    const found = await s.storedRequests.fetchRequests(['pg-only'], []);
    assert.equal(from(found.requests.get('pg-only')), 'http');
    assert.deepEqual(await s.accounts.fetch('acct-http'), { auction: { debug_allow: false } });
    assert.ok(warnings.filter((w) => w === 'postgres').length >= 2, `warnings: ${warnings.join(', ')}`);
  });

  it('passes over a Postgres that does not answer in time: the next source answers within its timeout', async () => {
    const s = await sources();
    await db.admin.query('BEGIN');
    await db.admin.query('LOCK TABLE stored_requests IN ACCESS EXCLUSIVE MODE');
    try {
      const started = Date.now();
      const found = await s.storedRequests.fetchRequests(['pg-only'], []);
      assert.equal(from(found.requests.get('pg-only')), 'http');
      assert.ok(Date.now() - started < PG_TIMEOUT_MS + 1500, `took ${Date.now() - started} ms`);
    } finally {
      await db.admin.query('ROLLBACK');
    }
  });

  it('fails cleanly when every source that might have an id fails', async () => {
    const s = await sources({ postgres: `postgres://openbid@127.0.0.1:${await freePort()}/postgres`, http: `http://127.0.0.1:${await freePort()}/stored` });
    await assert.rejects(s.storedRequests.fetchRequests(['pg-only'], []), (err) => isAppError(err) && err.code === 'BACKEND_FAILURE' && err.message === 'stored requests unavailable: postgres, http failed');
    await assert.rejects(async () => s.accounts.fetch('acct-pg'), (err) => isAppError(err) && err.code === 'BACKEND_FAILURE' && err.message === 'accounts unavailable: postgres, http failed');
    // What a file holds is still served, and a failure is not remembered as a miss.
    assert.equal(from((await s.storedRequests.fetchRequests(['everywhere'], [])).requests.get('everywhere')), 'file');
  });

  it('refuses Postgres accounts without a database', async () => {
    await assert.rejects(createStoredDataSources(options({ postgres: '' })), /accounts\.postgres\.enabled needs stored_requests\.postgres\.connection_string/);
  });

  it('openbid db migrate: exit 0 when migrated (again), 1 when the database cannot be reached', async () => {
    const ok = runCli(['db', 'migrate'], { OPENBID_STORED_REQUESTS__POSTGRES__CONNECTION_STRING: db.url, OPENBID_LOGGING__LEVEL: 'info' });
    assert.equal(await ok.exited, 0, ok.output());
    assert.match(ok.output(), /database schema is up to date/);
    const down = runCli(['db', 'migrate'], { OPENBID_STORED_REQUESTS__POSTGRES__CONNECTION_STRING: `postgres://openbid@127.0.0.1:${await freePort()}/postgres` });
    assert.equal(await down.exited, 1, down.output());
    assert.match(down.output(), /db migrate failed: .*ECONNREFUSED/);
    const none = runCli(['db', 'migrate']);
    assert.equal(await none.exited, 1);
    assert.match(none.output(), /connection_string is not set/);
    const wrong = runCli(['db', 'drop']);
    assert.equal(await wrong.exited, 2);
    assert.match(wrong.output(), /unknown command: db drop/);
  });
});
