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
 * - Version 2: a trigger on those three tables that, for every row written or deleted, sends
 *   `NOTIFY openbid_stored_data` with `{"k": kind, "a": account_id, "i": id}` (delivered at
 *   commit, to every listening instance) and appends the same to `openbid_stored_data_changes`,
 *   which the instances poll as a safety net; the log keeps a day. A payload too long for NOTIFY
 *   names only the kind (the listeners then drop their whole cache).
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
  {
    version: 2,
    name: 'change notifications and change log',
    sql: `
      CREATE TABLE openbid_stored_data_changes (
        kind text NOT NULL,
        account_id text NOT NULL,
        id text NOT NULL,
        changed_at timestamptz NOT NULL DEFAULT now()
      );
      CREATE INDEX openbid_stored_data_changes_at ON openbid_stored_data_changes (changed_at);
      CREATE FUNCTION openbid_stored_data_note(change_kind text, change_account text, change_id text) RETURNS void LANGUAGE plpgsql AS $$
      DECLARE
        payload text := json_build_object('k', change_kind, 'a', change_account, 'i', change_id)::text;
      BEGIN
        INSERT INTO openbid_stored_data_changes (kind, account_id, id) VALUES (change_kind, change_account, change_id);
        -- NOTIFY refuses payloads of 8000 bytes or more, failing the write: name only the kind then.
        IF octet_length(payload) >= 7900 THEN payload := json_build_object('k', change_kind)::text; END IF;
        PERFORM pg_notify('openbid_stored_data', payload);
      END $$;
      CREATE FUNCTION openbid_stored_data_changed() RETURNS trigger LANGUAGE plpgsql AS $$
      DECLARE
        change_kind text := TG_ARGV[0];
      BEGIN
        -- to_jsonb: the accounts table has no account_id (its changes name the account '').
        IF TG_OP IN ('UPDATE', 'DELETE') THEN
          PERFORM openbid_stored_data_note(change_kind, COALESCE(to_jsonb(OLD) ->> 'account_id', ''), OLD.id);
        END IF;
        -- An UPDATE that keeps its key notes it once (NOTIFY also folds equal payloads in a transaction).
        IF TG_OP = 'INSERT' OR (TG_OP = 'UPDATE' AND (to_jsonb(OLD) ->> 'account_id', OLD.id) IS DISTINCT FROM (to_jsonb(NEW) ->> 'account_id', NEW.id)) THEN
          PERFORM openbid_stored_data_note(change_kind, COALESCE(to_jsonb(NEW) ->> 'account_id', ''), NEW.id);
        END IF;
        DELETE FROM openbid_stored_data_changes WHERE changed_at < now() - interval '1 day';
        RETURN NULL;
      END $$;
      CREATE TRIGGER openbid_changed AFTER INSERT OR UPDATE OR DELETE ON stored_requests
        FOR EACH ROW EXECUTE FUNCTION openbid_stored_data_changed('request');
      CREATE TRIGGER openbid_changed AFTER INSERT OR UPDATE OR DELETE ON stored_imps
        FOR EACH ROW EXECUTE FUNCTION openbid_stored_data_changed('imp');
      CREATE TRIGGER openbid_changed AFTER INSERT OR UPDATE OR DELETE ON accounts
        FOR EACH ROW EXECUTE FUNCTION openbid_stored_data_changed('account');
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
