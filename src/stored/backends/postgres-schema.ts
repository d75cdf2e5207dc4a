import type { Pool } from 'pg';

/**
 * The Postgres schema of stored data, as numbered migrations. `openbid db migrate` applies the
 * ones a database lacks, in order, each once; applied versions are kept in `openbid_migrations`.
 * Never edit a released migration: add the next one.
 *
 * - `stored_requests`, `stored_imps`: `(account_id, id)` → `data`, the JSON object. An
 *   `account_id` of `''` serves every account; a row with an account id serves only lookups that
 *   name that account (AMP's `account`), and wins over the shared row of the same id. `json`, not
 *   `jsonb`: Postgres checks the text is JSON and keeps it exactly as written, which is what is
 *   served.
 * - `accounts`: `id` → `config`, the account's own settings (any subset of the account schema;
 *   checked when read, an invalid row is an error, never used).
 */
export const MIGRATIONS: readonly { readonly version: number; readonly name: string; readonly sql: string }[] = [
  {
    version: 1,
    name: 'stored requests, stored imps and accounts',
    sql: `
      CREATE TABLE stored_requests (
        account_id text NOT NULL DEFAULT '',
        id text NOT NULL,
        data json NOT NULL CHECK (json_typeof(data) = 'object'),
        updated_at timestamptz NOT NULL DEFAULT now(),
        PRIMARY KEY (account_id, id)
      );
      CREATE TABLE stored_imps (
        account_id text NOT NULL DEFAULT '',
        id text NOT NULL,
        data json NOT NULL CHECK (json_typeof(data) = 'object'),
        updated_at timestamptz NOT NULL DEFAULT now(),
        PRIMARY KEY (account_id, id)
      );
      CREATE TABLE accounts (
        id text PRIMARY KEY,
        config json NOT NULL CHECK (json_typeof(config) = 'object'),
        updated_at timestamptz NOT NULL DEFAULT now()
      );
    `,
  },
];

// Any constant: two `openbid db migrate` run at once take turns on this lock.
const MIGRATION_LOCK = 7_100_423_117;

/**
 * Applies the migrations the database lacks, in one transaction (all or none), and returns the
 * versions applied (empty when it was up to date).
 */
export const migrate = async (pool: Pool): Promise<number[]> => {
  const client = await pool.connect();
  try {
    await client.query('BEGIN');
    await client.query('SELECT pg_advisory_xact_lock($1)', [MIGRATION_LOCK]);
    await client.query(`CREATE TABLE IF NOT EXISTS openbid_migrations (
      version integer PRIMARY KEY,
      name text NOT NULL,
      applied_at timestamptz NOT NULL DEFAULT now()
    )`);
    const done = new Set((await client.query<{ version: number }>('SELECT version FROM openbid_migrations')).rows.map((r) => r.version));
    const applied: number[] = [];
    for (const m of MIGRATIONS) {
      if (done.has(m.version)) continue;
      await client.query(m.sql);
      await client.query('INSERT INTO openbid_migrations (version, name) VALUES ($1, $2)', [m.version, m.name]);
      applied.push(m.version);
    }
    await client.query('COMMIT');
    return applied;
  } catch (err) {
    await client.query('ROLLBACK').catch(() => undefined);
    throw err;
  } finally {
    client.release();
  }
};
