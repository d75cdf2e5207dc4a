import { readFile } from 'node:fs/promises';
import { LRUCache } from 'lru-cache';
import { fetchBoundedText } from '../../core/bounded-fetch.js';
import type { Clock } from '../../core/clock.js';
import type { Logger } from '../../core/logger.js';
import { redactUrlCredentials } from '../../core/url-credentials.js';
import { parseVendorList } from '../vendor-list.js';
import type { VendorList, VendorLists } from '../vendor-list.js';

export interface VendorListsOptions {
  /** The latest list, fetched at start and every `refreshIntervalMs`; empty: none. */
  readonly url: string;
  /** A version's URL, `{version}` standing for the number; empty: versions are not fetched. */
  readonly archiveUrl: string;
  /** A list read once at start; used as the latest when no URL answers. Empty: none. */
  readonly file: string;
  readonly refreshIntervalMs: number;
  /** Each fetch gives up after this long. */
  readonly fetchTimeoutMs: number;
  /** A version that could not be fetched is not asked for again before this long. */
  readonly retryAfterMs: number;
  readonly maxVersions: number;
  readonly clock: Clock;
  readonly logger: Logger;
}

/** Largest list read (the IAB's full list is about 1 MB). */
const MAX_LIST_BYTES = 16 * 1024 * 1024;

/** A list at a URL; redirects are followed, so a list its host has moved is still found. */
const fetchList = async (url: string, signal: AbortSignal): Promise<VendorList> =>
  parseVendorList(JSON.parse(await fetchBoundedText(url, { maxBytes: MAX_LIST_BYTES, signal })) as unknown);

/**
 * The vendor lists of `privacy.gdpr.vendor_list`: the file read at start, the URL fetched at start
 * and refreshed (a failed refresh keeps the last good copy), and versions named by consent strings
 * fetched from `archiveUrl` on first use, the last `maxVersions` kept. Start-up waits for the first
 * fetch (bounded by `fetchTimeoutMs`) but never fails for it: the server runs without a list.
 */
export const createVendorLists = async (opts: VendorListsOptions): Promise<VendorLists> => {
  const versions = new LRUCache<number, VendorList>({ max: opts.maxVersions });
  const failedUntil = new LRUCache<number, number>({ max: 1000 });
  const inFlight = new Map<number, Promise<VendorList | undefined>>();
  let latest: VendorList | undefined;
  const keep = (list: VendorList): void => {
    versions.set(list.version, list);
    if (latest === undefined || list.version >= latest.version) latest = list;
  };

  if (opts.file !== '') {
    try {
      keep(parseVendorList(JSON.parse(await readFile(opts.file, 'utf8')) as unknown));
    } catch (err) {
      opts.logger.error({ err, file: opts.file }, 'the vendor list file could not be read; GDPR vendor checks run without it');
    }
  }
  const loggableUrl = redactUrlCredentials(opts.url);
  const refresh = async (): Promise<void> => {
    try {
      keep(await fetchList(opts.url, AbortSignal.timeout(opts.fetchTimeoutMs)));
    } catch (err) {
      opts.logger.warn({ err, url: loggableUrl, kept: latest?.version }, 'the vendor list could not be fetched; the last good copy stays in use');
    }
  };
  let timer: NodeJS.Timeout | undefined;
  if (opts.url !== '') {
    await refresh();
    timer = setInterval(() => void refresh(), opts.refreshIntervalMs);
    timer.unref();
  }

  const fetchVersion = (version: number): Promise<VendorList | undefined> => {
    let pending = inFlight.get(version);
    if (pending !== undefined) return pending;
    pending = (async () => {
      try {
        const list = await fetchList(opts.archiveUrl.replaceAll('{version}', String(version)), AbortSignal.timeout(opts.fetchTimeoutMs));
        if (list.version !== version) throw new Error(`asked for version ${version}, got ${list.version}`);
        keep(list);
        return list;
      } catch (err) {
        failedUntil.set(version, opts.clock.now() + opts.retryAfterMs);
        opts.logger.warn({ err, version }, 'a vendor list version could not be fetched');
        return undefined;
      } finally {
        inFlight.delete(version);
      }
    })();
    inFlight.set(version, pending);
    return pending;
  };

  return {
    get: (version) => versions.get(version),
    load: async (version, signal) => {
      const held = versions.get(version);
      if (held !== undefined) return held;
      if (opts.archiveUrl === '' || !(version > 0) || (failedUntil.get(version) ?? 0) > opts.clock.now()) return undefined;
      if (signal.aborted) return undefined;
      // The fetch goes on when the auction stops waiting: the next auction finds the version held.
      let onAbort: (() => void) | undefined;
      const gaveUp = new Promise<undefined>((resolve) => signal.addEventListener('abort', (onAbort = () => resolve(undefined)), { once: true }));
      try {
        return await Promise.race([fetchVersion(version), gaveUp]);
      } finally {
        signal.removeEventListener('abort', onAbort!);
      }
    },
    latest: () => latest,
    close: async () => {
      if (timer !== undefined) clearInterval(timer);
      await Promise.allSettled([...inFlight.values()]);
    },
  };
};
