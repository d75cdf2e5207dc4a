import pg from 'pg';
import type { Pool } from 'pg';
import { throttledLog } from '../../core/log-throttle.js';
import type { Logger } from '../../core/logger.js';
import type { StoredChange, StoredKind } from '../fetcher-cache.js';

/*
 * Postgres stored data changes, seen by every instance: the trigger of migration 2
 * (postgres-schema.ts) sends `NOTIFY openbid_stored_data` for each row written or deleted and logs
 * it in `openbid_stored_data_changes`. Each process listens on one dedicated connection and polls
 * the log as a safety net; either way the changed ids are dropped from its cache, so the next
 * lookup reads the row as it now is.
 */

/** The channel the trigger notifies on. */
export const CHANGES_CHANNEL = 'openbid_stored_data';

export interface PostgresChangeWatchOptions {
  /** For the listening connection, which is not the pool's (a pooled one is handed back). */
  readonly connectionString: string;
  /** Polls the change log; none when `pollIntervalMs` is 0. */
  readonly pool: Pool;
  /** Listen for notifications on a dedicated connection. */
  readonly notifications: boolean;
  /** How often the change log is read; 0 reads it never. */
  readonly pollIntervalMs: number;
  /** Bounds connecting, the heartbeat and each poll. */
  readonly timeoutMs: number;
  /** Changed rows, batched per event-loop turn; never more than `maxBatch` at once. */
  readonly onChanges: (changes: readonly StoredChange[]) => void;
  /**
   * Everything may have changed: the listener (re)connected after a time it could not hear, a
   * batch overflowed, a change was too long to name, or the log had more than `maxBatch` rows.
   */
  readonly onAllChanged: () => void;
  /**
   * A notification (`notify`) or change-log row (`poll`) that is not the trigger's was ignored
   * (and logged, at most once per 5 s): for a counter. Nothing else follows from it.
   */
  readonly onInvalid?: (via: 'notify' | 'poll') => void;
  readonly logger: Logger;
  /** Most changes held for one batch (and read per poll); more drops everything instead. Default 10,000. */
  readonly maxBatch?: number;
  /** Most bytes of ids held for one batch; more drops everything instead. Default 1 MiB. */
  readonly maxBatchBytes?: number;
  /** Reconnect backoff: first delay, doubling up to the last. Defaults 250 ms, 30 s. */
  readonly reconnectMinMs?: number;
  readonly reconnectMaxMs?: number;
  /** How often the idle listening connection is checked with a query (a dead peer sends no error). Default 15 s. */
  readonly heartbeatMs?: number;
}

export interface PostgresChangeWatch {
  /** Whether the dedicated connection is listening now. */
  listening(): boolean;
  /** Stops listening and polling; resolves once the connection is closed. */
  close(): Promise<void>;
}

// A transaction's changes carry its start time (now()) but show at its commit: a poll reads back
// this far before the previous one, so a write that took this long to commit is still seen.
const POLL_OVERLAP_SECONDS = 60;

const POLL_SQL = `
  SELECT now()::text AS now, c.kind, c.account_id, c.id FROM (SELECT 1) AS one
  LEFT JOIN LATERAL (
    SELECT kind, account_id, id FROM openbid_stored_data_changes
    WHERE $1::timestamptz IS NOT NULL AND changed_at >= $1::timestamptz - make_interval(secs => $2)
    LIMIT $3) AS c ON true`;

const KINDS: ReadonlySet<string> = new Set<StoredKind>(['request', 'imp', 'account']);

/**
 * A notification's payload as the trigger writes it: the change it names (`{"k", "a", "i"}`);
 * `'everything'` for a payload naming only a known kind (the trigger's answer to an id too long
 * for NOTIFY), which the caller treats as "everything changed"; `'invalid'` for anything else
 * (not JSON, not an object, an unknown kind, a member of the wrong type), which names nothing and
 * so must change nothing.
 */
export const parseChange = (payload: string | undefined): StoredChange | 'everything' | 'invalid' => {
  let p: unknown;
  try {
    p = JSON.parse(payload ?? '');
  } catch {
    return 'invalid';
  }
  if (typeof p !== 'object' || p === null || Array.isArray(p)) return 'invalid';
  const { k, a, i } = p as { k?: unknown; a?: unknown; i?: unknown };
  if (typeof k !== 'string' || !KINDS.has(k)) return 'invalid';
  if (a === undefined && i === undefined) return 'everything';
  return typeof a === 'string' && typeof i === 'string' ? { kind: k as StoredKind, accountId: a, id: i } : 'invalid';
};

/** How much of an invalid payload a log line shows (a payload may be up to 8000 bytes). */
const PAYLOAD_LOG_CHARS = 200;

/**
 * Collects changes until the end of the event-loop turn, then hands them over at once (a bulk
 * update notifies per row). Bounded in count and bytes: past either, the batch becomes "all".
 */
export const createChangeBatcher = (onChanges: (changes: readonly StoredChange[]) => void, onAll: () => void, maxBatch: number, maxBytes: number) => {
  let pending: StoredChange[] = [];
  let bytes = 0;
  let all = false;
  let scheduled: NodeJS.Immediate | undefined;
  const flush = (): void => {
    scheduled = undefined;
    const [batch, wasAll] = [pending, all];
    pending = [];
    bytes = 0;
    all = false;
    if (wasAll) onAll();
    else if (batch.length > 0) onChanges(batch);
  };
  return {
    add: (change: StoredChange | undefined): void => {
      if (change === undefined) all = true;
      else if (!all) {
        bytes += 2 * (change.accountId.length + change.id.length);
        if (pending.length >= maxBatch || bytes > maxBytes) all = true;
        else pending.push(change);
      }
      if (all) pending = [];
      scheduled ??= setImmediate(flush);
    },
    cancel: (): void => {
      if (scheduled !== undefined) clearImmediate(scheduled);
      scheduled = undefined;
    },
  };
};

/** The delay before reconnect attempt `attempt` (0 first): doubling from `min` up to `max`, ±20% so instances spread out. */
export const backoffMs = (attempt: number, min: number, max: number, random: () => number = Math.random): number =>
  Math.round(Math.min(max, min * 2 ** Math.min(attempt, 30)) * (0.8 + 0.4 * random()));

/**
 * Starts listening (when `notifications`) and polling (when `pollIntervalMs` > 0). Never throws
 * into the process: a connection that fails or drops is logged and retried with backoff, and
 * every (re)connect drops everything (what changed meanwhile is unknown).
 */
export const watchPostgresChanges = (opts: PostgresChangeWatchOptions): PostgresChangeWatch => {
  const { logger } = opts;
  const batcher = createChangeBatcher(opts.onChanges, opts.onAllChanged, opts.maxBatch ?? 10_000, opts.maxBatchBytes ?? 1024 * 1024);
  const [minMs, maxMs, heartbeatMs] = [opts.reconnectMinMs ?? 250, opts.reconnectMaxMs ?? 30_000, opts.heartbeatMs ?? 15_000];
  let closed = false;
  let client: pg.Client | undefined;
  let isListening = false;
  let attempt = 0;
  let reconnectTimer: NodeJS.Timeout | undefined;
  let heartbeatTimer: NodeJS.Timeout | undefined;
  let pollTimer: NodeJS.Timeout | undefined;
  const invalidLog = throttledLog();

  /** A payload or log row into the batch; one that is not the trigger's is logged, counted and ignored. */
  const accept = (payload: string | undefined, via: 'notify' | 'poll'): void => {
    const parsed = parseChange(payload);
    if (parsed === 'invalid') {
      opts.onInvalid?.(via);
      invalidLog((suppressed) =>
        logger.warn({ via, payload: (payload ?? '').slice(0, PAYLOAD_LOG_CHARS), suppressed }, 'postgres stored data change ignored: not a change the openbid trigger writes; nothing dropped from the cache'),
      );
    } else batcher.add(parsed === 'everything' ? undefined : parsed);
  };

  const drop = (c: pg.Client, why: string): void => {
    if (client !== c) return;
    client = undefined;
    clearTimeout(heartbeatTimer);
    if (isListening) logger.warn({ reason: why }, 'postgres change notifications lost; cached stored data is kept for its TTL (and the poll) until they are back');
    else logger.debug({ reason: why, attempt }, 'postgres change notifications: could not listen');
    isListening = false;
    c.end().catch(() => undefined);
    if (closed) return;
    const delay = backoffMs(attempt++, minMs, maxMs);
    reconnectTimer = setTimeout(() => void listen(), delay);
    reconnectTimer.unref();
  };

  const heartbeat = (c: pg.Client): void => {
    heartbeatTimer = setTimeout(() => {
      c.query('SELECT 1').then(
        () => {
          if (client === c) heartbeat(c);
        },
        (err: Error) => drop(c, err.message),
      );
    }, heartbeatMs);
    heartbeatTimer.unref();
  };

  const listen = async (): Promise<void> => {
    if (closed) return;
    const c = new pg.Client({
      connectionString: opts.connectionString,
      connectionTimeoutMillis: Math.max(opts.timeoutMs, 2_000),
      query_timeout: Math.max(opts.timeoutMs, 2_000),
      keepAlive: true,
      application_name: 'openbid-listen',
    });
    client = c;
    c.on('error', (err) => drop(c, err.message));
    c.on('end', () => drop(c, 'connection ended'));
    c.on('notification', (msg) => {
      if (msg.channel === CHANGES_CHANNEL) accept(msg.payload, 'notify');
    });
    try {
      await c.connect();
      await c.query(`LISTEN ${CHANGES_CHANNEL}`);
    } catch (err) {
      drop(c, (err as Error).message);
      return;
    }
    if (client !== c || closed) return;
    isListening = true;
    if (attempt > 0) logger.info({ attempts: attempt }, 'postgres change notifications are back');
    attempt = 0;
    heartbeat(c);
    // What was written while nobody listened is unknown (the first time too: lookups may have run).
    batcher.add(undefined);
  };

  let since: string | undefined;
  let pollFailing = false;
  const poll = async (): Promise<void> => {
    try {
      const limit = opts.maxBatch ?? 10_000;
      const result = await opts.pool.query<{ now: string; kind: string | null; account_id: string | null; id: string | null }>({
        text: POLL_SQL,
        values: [since ?? null, POLL_OVERLAP_SECONDS, limit + 1],
      });
      if (pollFailing) logger.info({}, 'postgres change log readable again');
      pollFailing = false;
      const rows = result.rows.filter((r) => r.kind !== null);
      if (rows.length > limit) batcher.add(undefined);
      else for (const r of rows) accept(JSON.stringify({ k: r.kind, a: r.account_id, i: r.id }), 'poll');
      since = result.rows[0]?.now ?? since;
    } catch (err) {
      // Closing ends the pool under a poll in flight: not worth a warning.
      if (closed) return;
      if (!pollFailing) logger.warn({ err: { message: (err as Error).message } }, 'postgres change log not readable (is the database migrated with `openbid db migrate`?); retried each poll');
      pollFailing = true;
    }
  };
  const schedulePoll = (): void => {
    if (closed || opts.pollIntervalMs <= 0) return;
    pollTimer = setTimeout(() => void poll().finally(schedulePoll), opts.pollIntervalMs);
    pollTimer.unref();
  };

  if (opts.notifications) void listen();
  if (opts.pollIntervalMs > 0) void poll().finally(schedulePoll);

  return {
    listening: () => isListening,
    close: async () => {
      closed = true;
      for (const t of [reconnectTimer, heartbeatTimer, pollTimer]) clearTimeout(t);
      batcher.cancel();
      const c = client;
      client = undefined;
      isListening = false;
      await c?.end().catch(() => undefined);
    },
  };
};
