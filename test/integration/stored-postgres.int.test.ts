import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import type { Pool } from 'pg';
import { isAppError } from '../../src/core/app-error.js';
import { silentLogger } from '../../src/core/logger.js';
import { createPostgresAccountFetcher, createPostgresPool, createPostgresStoredRequestFetcher, migrate, MIGRATIONS } from '../../src/stored/backends/postgres.js';
import { freePort } from '../support/ports.js';
import { startPostgres } from '../support/postgres.js';
import type { PostgresServer } from '../support/postgres.js';
import { storedDataContract } from '../support/stored-contract.js';

const TIMEOUT_MS = 300;

const TABLE = { request: 'stored_requests', imp: 'stored_imps' } as const;

/** Writes a row as an operator would (upsert), `account_id` '' unless given. */
const put = async (db: PostgresServer, kind: 'request' | 'imp' | 'account', id: string, value: object, accountId = ''): Promise<void> => {
  if (kind === 'account') {
    await db.admin.query('INSERT INTO accounts (id, config) VALUES ($1, $2) ON CONFLICT (id) DO UPDATE SET config = EXCLUDED.config, updated_at = now()', [id, JSON.stringify(value)]);
    return;
  }
  await db.admin.query(
    `INSERT INTO ${TABLE[kind]} (account_id, id, data) VALUES ($1, $2, $3) ON CONFLICT (account_id, id) DO UPDATE SET data = EXCLUDED.data, updated_at = now()`,
    [accountId, id, JSON.stringify(value)],
  );
};

const failsWith = (code: string, message: RegExp) => (err: unknown) => isAppError(err) && err.code === code && message.test(err.message);

describe('postgres stored data', () => {
  let db: PostgresServer;
  let pool: Pool;
  before(async () => {
    db = await startPostgres();
    pool = createPostgresPool({ connectionString: db.url, poolSize: 4, timeoutMs: TIMEOUT_MS, logger: silentLogger });
  });
  after(async () => {
    await pool.end();
    await db.stop();
  });

  it('migrates an empty database once: a second run, even concurrent, applies nothing', async () => {
    const runs = await Promise.all([migrate(pool), migrate(pool)]);
    assert.deepEqual(runs.flat().sort(), MIGRATIONS.map((m) => m.version));
    assert.deepEqual(await migrate(pool), []);
    const tables = await db.admin.query<{ table_name: string }>("SELECT table_name FROM information_schema.tables WHERE table_schema = 'public' ORDER BY table_name");
    assert.deepEqual(
      tables.rows.map((r) => r.table_name),
      ['accounts', 'openbid_migrations', 'openbid_stored_data_changes', 'stored_imps', 'stored_requests'],
    );
  });

  storedDataContract('postgres', async () => ({
    fetcher: createPostgresStoredRequestFetcher({ pool, timeoutMs: TIMEOUT_MS }),
    accounts: createPostgresAccountFetcher({ pool, timeoutMs: TIMEOUT_MS }),
    put: async (kind, id, value) => put(db, kind, id, value),
    cleanup: async () => undefined,
  }));

  it('keeps the JSON text exactly as written', async () => {
    const text = '{ "id" : "spaced",  "tmax":300 }';
    await db.admin.query("INSERT INTO stored_requests (id, data) VALUES ('exact-text', $1)", [text]);
    const found = await createPostgresStoredRequestFetcher({ pool, timeoutMs: TIMEOUT_MS }).fetchRequests(['exact-text'], []);
    assert.equal(found.requests.get('exact-text'), text);
  });

  it('refuses to store what is not a JSON object', async () => {
    await assert.rejects(db.admin.query("INSERT INTO stored_requests (id, data) VALUES ('array', '[1]')"), /violates check constraint/);
    await assert.rejects(db.admin.query("INSERT INTO stored_imps (id, data) VALUES ('bad', '{nope')"), /invalid input syntax for type json/);
  });

  it("scopes ids by account: the account's own row, else the shared one; without an account, only shared rows", async () => {
    const fetcher = createPostgresStoredRequestFetcher({ pool, timeoutMs: TIMEOUT_MS });
    await put(db, 'request', 'tag-a', { who: 'shared' });
    await put(db, 'request', 'tag-a', { who: 'pub-1' }, 'pub-1');
    await put(db, 'request', 'tag-b', { who: 'pub-2 only' }, 'pub-2');
    await put(db, 'imp', 'imp-a', { who: 'pub-1 imp' }, 'pub-1');
    const text = (m: ReadonlyMap<string, string>, id: string) => JSON.parse(m.get(id) ?? 'null') as unknown;

    const mine = await fetcher.fetchRequests(['tag-a', 'tag-b'], ['imp-a'], { accountId: 'pub-1' });
    assert.deepEqual(text(mine.requests, 'tag-a'), { who: 'pub-1' });
    assert.deepEqual(text(mine.imps, 'imp-a'), { who: 'pub-1 imp' });
    assert.deepEqual(mine.missing, ['tag-b']);

    const theirs = await fetcher.fetchRequests(['tag-a', 'tag-b'], ['imp-a'], { accountId: 'pub-2' });
    assert.deepEqual(text(theirs.requests, 'tag-a'), { who: 'shared' });
    assert.deepEqual(text(theirs.requests, 'tag-b'), { who: 'pub-2 only' });
    assert.deepEqual(theirs.missing, ['imp-a']);

    const none = await fetcher.fetchRequests(['tag-a', 'tag-b'], ['imp-a']);
    assert.deepEqual(text(none.requests, 'tag-a'), { who: 'shared' });
    assert.deepEqual(none.missing, ['tag-b', 'imp-a']);
  });

  it('times a lookup out when the database does not answer in time', async () => {
    const fetcher = createPostgresStoredRequestFetcher({ pool, timeoutMs: TIMEOUT_MS });
    const accounts = createPostgresAccountFetcher({ pool, timeoutMs: TIMEOUT_MS });
    // A lock held by another session makes the lookups wait, as a stuck database would.
    await db.admin.query('BEGIN');
    await db.admin.query('LOCK TABLE stored_requests, accounts IN ACCESS EXCLUSIVE MODE');
    try {
      const started = Date.now();
      await assert.rejects(fetcher.fetchRequests(['tag-a'], []), failsWith('BACKEND_TIMEOUT', /^postgres: no answer within 300 ms$/));
      await assert.rejects(async () => accounts.fetch('acct'), failsWith('BACKEND_TIMEOUT', /^postgres: no answer within 300 ms$/));
      assert.ok(Date.now() - started < 2000, `took ${Date.now() - started} ms`);
    } finally {
      await db.admin.query('ROLLBACK');
    }
    // The pool recovers: the next lookup answers.
    assert.equal((await fetcher.fetchRequests(['tag-a'], [])).requests.size, 1);
  });

  it('fails cleanly when the database is down', async () => {
    const down = createPostgresPool({ connectionString: `postgres://openbid@127.0.0.1:${await freePort()}/postgres`, poolSize: 1, timeoutMs: TIMEOUT_MS, logger: silentLogger });
    try {
      await assert.rejects(createPostgresStoredRequestFetcher({ pool: down, timeoutMs: TIMEOUT_MS }).fetchRequests(['a'], []), failsWith('BACKEND_FAILURE', /^postgres: .*ECONNREFUSED/));
      await assert.rejects(async () => createPostgresAccountFetcher({ pool: down, timeoutMs: TIMEOUT_MS }).fetch('a'), failsWith('BACKEND_FAILURE', /^postgres: .*ECONNREFUSED/));
    } finally {
      await down.end();
    }
  });
});
