import { LRUCache } from 'lru-cache';
import type { Clock } from '../core/clock.js';
import { systemClock } from '../core/clock.js';
import type { AccountFetcher, AccountSettings } from './account.js';
import { untilAborted } from './errors.js';
import type { StoredData, StoredRequestFetcher } from './stored-request-fetcher.js';

export interface StoredCacheOptions {
  /** How long a found entry is served from memory; 0 keeps none. */
  readonly ttlMs: number;
  /** How long an id no source has is remembered as missing; 0 remembers none. */
  readonly missTtlMs: number;
  /** Most found entries held, and most misses held; the least recently used go first. */
  readonly maxEntries: number;
  /**
   * Most bytes the found entries take, and the misses take (ids and values, counted as UTF-16, plus
   * a fixed overhead per entry); the least recently used go first, and an entry larger than this
   * is not kept. Ids come from requests: the entry count alone does not bound the memory.
   */
  readonly maxBytes: number;
  readonly clock?: Clock;
}

/** Drops what the cache holds for an id (every id of the kind when none is given), so the next lookup asks the sources: a file changed. */
export interface Invalidate {
  invalidate(kind: StoredKind, id?: string): void;
}

export type StoredKind = 'request' | 'imp' | 'account';

/**
 * A row of a source that changed (written or deleted). `accountId` '' is a row serving every
 * account: it may be cached under any account's key, so every one of them is dropped.
 */
export interface StoredChange {
  readonly kind: StoredKind;
  readonly accountId: string;
  readonly id: string;
}

/** Drops what the cache holds for changed rows, in one pass over the cache however many there are. */
export interface EvictChanged {
  evictChanged(changes: readonly StoredChange[]): void;
}

/**
 * The bounded, TTL'd memory in front of the stored data sources. A hot id costs no lookup; lookups
 * of the same id running at the same time share one call to the sources; ids no source has are
 * remembered briefly (`missTtlMs`), so a hot unknown tag does not hit a database per request.
 * Misses are kept apart from found entries, so a flood of unknown ids cannot push hot entries out.
 * Failures are never cached. A shared lookup does not take one caller's `signal` (it would fail
 * the others): each caller stops waiting at its own deadline, while the lookup is bounded by its
 * sources' own timeouts.
 */
const createEntryCache = <V extends object | string>(opts: StoredCacheOptions, valueBytes: (value: V) => number) => {
  const clock = opts.clock ?? systemClock;
  const lruOptions = { max: opts.maxEntries, maxSize: opts.maxBytes, ttlResolution: 0, perf: { now: () => clock.now() } };
  const found = new LRUCache<string, V>({ ...lruOptions, sizeCalculation: (value, key) => keyBytes(key) + valueBytes(value) });
  const missing = new LRUCache<string, true>({ ...lruOptions, sizeCalculation: (_, key) => keyBytes(key) });
  const inflight = new Map<string, Promise<V | undefined>>();
  // Bumped by each invalidation: a lookup that started before it must not store what it read.
  let generation = 0;
  return {
    /** `undefined`: not held; `null`: held as missing. */
    get: (key: string): V | null | undefined => found.get(key) ?? (missing.get(key) === true ? null : undefined),
    pending: (key: string) => inflight.get(key),
    generation: () => generation,
    store: (key: string, value: V | undefined, startedAt: number): void => {
      if (startedAt !== generation) return;
      if (value !== undefined && opts.ttlMs > 0) found.set(key, value, { ttl: opts.ttlMs });
      else if (value === undefined && opts.missTtlMs > 0) missing.set(key, true, { ttl: opts.missTtlMs });
    },
    track: (key: string, p: Promise<V | undefined>): void => void inflight.set(key, p),
    untrack: (key: string, p: Promise<V | undefined>): void => {
      if (inflight.get(key) === p) inflight.delete(key);
    },
    invalidate: (matches: (key: string) => boolean): void => {
      generation++;
      for (const cache of [found, missing]) for (const key of [...cache.keys()]) if (matches(key)) cache.delete(key);
      for (const key of [...inflight.keys()]) if (matches(key)) inflight.delete(key);
    },
  };
};

/** What an entry costs beside its id and value: the cache's node, its arrays' slots, the TTL. */
const ENTRY_OVERHEAD_BYTES = 128;
const keyBytes = (key: string): number => ENTRY_OVERHEAD_BYTES + 2 * key.length;

/**
 * An account's settings, roughly: their JSON text as UTF-16, doubled for the object's own layout
 * (and the merged account the resolver keeps beside it). Computed once, when an entry is stored.
 */
const accountBytes = (settings: AccountSettings): number => 4 * JSON.stringify(settings).length;

// Account ids and stored ids are arbitrary strings: NUL keeps the parts of a key apart.
const keyOf = (kind: StoredKind, accountId: string, id: string): string => `${kind}\0${accountId}\0${id}`;
const matchesId = (kind: StoredKind, id: string | undefined) => (key: string) => key.startsWith(`${kind}\0`) && (id === undefined || key.endsWith(`\0${id}`));

/**
 * The keys `changes` make stale: an account's own row, its key exactly; a shared row, its id under
 * every account. Sets, so a batch of thousands costs one lookup per cached key. A key's id is what
 * follows its last NUL: an id holding a NUL cannot come from Postgres (its text refuses NUL).
 */
export const matchesChanges = (changes: readonly StoredChange[]): ((key: string) => boolean) => {
  const exact = new Set<string>();
  const shared = new Set<string>();
  for (const c of changes) (c.accountId === '' ? shared : exact).add(c.accountId === '' ? `${c.kind}\0${c.id}` : keyOf(c.kind, c.accountId, c.id));
  return (key) => exact.has(key) || (shared.size > 0 && shared.has(`${key.slice(0, key.indexOf('\0'))}\0${key.slice(key.lastIndexOf('\0') + 1)}`));
};

/** `inner` behind the cache. Keys include the account, as a source may scope ids by it. */
export const createCachedStoredRequestFetcher = (inner: StoredRequestFetcher, opts: StoredCacheOptions): StoredRequestFetcher & Invalidate & EvictChanged => {
  const entries = createEntryCache<string>(opts, (text) => 2 * text.length);
  return {
    invalidate: (kind, id) => entries.invalidate(matchesId(kind, id)),
    evictChanged: (changes) => entries.invalidate(matchesChanges(changes)),
    fetchRequests: async (requestIds, impIds, fetchOpts = {}) => {
      const accountId = fetchOpts.accountId ?? '';
      const asked = [...unique(requestIds).map((id) => ['request', id] as const), ...unique(impIds).map((id) => ['imp', id] as const)];
      const answers = new Map<string, Promise<string | undefined> | string | undefined>();
      const toFetch: { kind: 'request' | 'imp'; id: string; key: string }[] = [];
      for (const [kind, id] of asked) {
        const key = keyOf(kind, accountId, id);
        const held = entries.get(key);
        const pending = held === undefined ? entries.pending(key) : undefined;
        if (held !== undefined) answers.set(key, held ?? undefined);
        else if (pending !== undefined) answers.set(key, pending);
        else toFetch.push({ kind, id, key });
      }
      if (toFetch.length > 0) {
        const startedAt = entries.generation();
        const call = inner
          .fetchRequests(
            toFetch.filter((f) => f.kind === 'request').map((f) => f.id),
            toFetch.filter((f) => f.kind === 'imp').map((f) => f.id),
            accountId === '' ? {} : { accountId },
          )
          .then((found: StoredData) => {
            for (const f of toFetch) entries.store(f.key, (f.kind === 'request' ? found.requests : found.imps).get(f.id), startedAt);
            return found;
          });
        for (const f of toFetch) {
          const one = call.then((found) => (f.kind === 'request' ? found.requests : found.imps).get(f.id));
          entries.track(f.key, one);
          // Settled either way, the lookup is no longer shared (a failure is not remembered).
          one.then(() => entries.untrack(f.key, one), () => entries.untrack(f.key, one));
          answers.set(f.key, one);
        }
      }
      const values = await untilAborted(Promise.all(asked.map(async ([kind, id]) => answers.get(keyOf(kind, accountId, id)))), fetchOpts.signal, 'stored requests');
      const requests = new Map<string, string>();
      const imps = new Map<string, string>();
      const missing: string[] = [];
      asked.forEach(([kind, id], i) => {
        const text = values[i];
        if (text === undefined) missing.push(id);
        else (kind === 'request' ? requests : imps).set(id, text);
      });
      return { requests, imps, missing };
    },
  };
};

/** Accounts behind the cache; a hit (found or missing) answers directly, without a promise. */
export const createCachedAccountFetcher = (inner: AccountFetcher, opts: StoredCacheOptions): AccountFetcher & Invalidate & EvictChanged => {
  const entries = createEntryCache<AccountSettings>(opts, accountBytes);
  return {
    invalidate: (kind, id) => entries.invalidate(matchesId(kind, id)),
    evictChanged: (changes) => entries.invalidate(matchesChanges(changes)),
    fetch: (id, fetchOpts) => {
      const key = keyOf('account', '', id);
      const held = entries.get(key);
      if (held !== undefined) return held ?? undefined;
      const pending = entries.pending(key);
      if (pending !== undefined) return untilAborted(pending, fetchOpts?.signal, 'accounts');
      const startedAt = entries.generation();
      const answer = inner.fetch(id);
      if (!(answer instanceof Promise)) {
        entries.store(key, answer, startedAt);
        return answer;
      }
      const one = answer.then((found) => {
        entries.store(key, found, startedAt);
        return found;
      });
      entries.track(key, one);
      one.then(() => entries.untrack(key, one), () => entries.untrack(key, one));
      return untilAborted(one, fetchOpts?.signal, 'accounts');
    },
  };
};

const unique = (ids: readonly string[]): string[] => [...new Set(ids.filter((id) => id !== ''))];
