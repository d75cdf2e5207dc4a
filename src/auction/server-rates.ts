import type { Clock } from '../core/clock.js';
import type { Logger } from '../core/logger.js';
import type { Metrics } from '../metrics/metrics.js';
import type { Rates } from './currency.js';
import { isStale, parseRatesDocument } from './currency-rates.js';
import type { RatesDocument, RatesSource } from './currency-rates.js';

export interface ServerRatesOptions {
  readonly source: RatesSource;
  /** Time between the end of one read and the start of the next. */
  readonly refreshIntervalMs: number;
  /** Each read gives up after this long (a failed read). */
  readonly readTimeoutMs: number;
  /** Rates not refreshed for longer than this are dropped; 0: never. */
  readonly staleAfterMs: number;
  readonly clock: Clock;
  readonly logger: Logger;
  readonly metrics: Metrics;
}

/** Where the server's rates come from and what is in use, for the admin listener's `/currency/rates`. */
export interface ServerRatesInfo {
  /** The source's name (its file path or URL, no credentials). */
  readonly source: string;
  readonly refreshIntervalMs: number;
  /** Unix time in ms of the last good read; kept when stale rates are dropped. Undefined: never read. */
  readonly lastUpdatedMs: number | undefined;
  /** The rates in use, as `current` answers them. */
  readonly rates: Rates | undefined;
}

/**
 * The server's currency rates, read from a `RatesSource` at start and again every refresh
 * interval. A read that fails or a document that is not good keeps the last good rates; rates
 * whose last good read is older than `staleAfterMs` are dropped (logged once), so conversions
 * that need them fail as "rate not found" rather than price bids on an old rate.
 *
 * Contract: `current` answers at once (no I/O) with the rates in use, codes upper-case, or
 * `undefined`; safe to call from every auction. `info` answers the same at once, with where the
 * rates come from and when they were read, or `undefined` when no source is configured. `refresh` reads the source now (joining a read in
 * flight) and never rejects. `start` refreshes once, then keeps refreshing until `close`, which
 * stops the timer, aborts a read in flight and waits for it. Both are idempotent.
 */
export interface ServerRates {
  // A function property, not a method: the exchange is handed `current` alone, detached.
  readonly current: () => Rates | undefined;
  info(): ServerRatesInfo | undefined;
  refresh(): Promise<void>;
  start(): Promise<void>;
  close(): Promise<void>;
}

type RefreshResult = 'ok' | 'unreadable' | 'invalid';

export const createServerRates = (opts: ServerRatesOptions): ServerRates => {
  const { source, clock, logger } = opts;
  const refreshes = opts.metrics.counter({
    name: 'openbid_currency_rates_refreshes_total',
    help: 'Reads of the server currency rates, by result (ok, unreadable: the source failed, invalid: not a good rates document).',
    labelNames: ['result'],
  });
  const lastUpdate = opts.metrics.gauge({
    name: 'openbid_currency_rates_last_update_timestamp_seconds',
    help: 'When the server currency rates in use were last read successfully (Unix time); with time() the age of the rates.',
    labelNames: [],
    // Across workers the oldest counts: the alert on stale rates must see the worst one.
    clusterAggregate: 'min',
  });
  const available = opts.metrics.gauge({
    name: 'openbid_currency_rates_available',
    help: '1 while server currency rates are in use, 0 when there are none (never read, or dropped as stale).',
    labelNames: [],
    clusterAggregate: 'min',
  });
  available.set({}, 0);

  let held: { readonly doc: RatesDocument; readonly loadedAt: number } | undefined;
  // Outlives `held`: an operator asking why there are no rates wants to know when they last were.
  let lastGoodAt: number | undefined;
  let inFlight: Promise<void> | undefined;
  let timer: NodeJS.Timeout | undefined;
  let started = false;
  let closed = false;
  const stop = new AbortController();

  /** Drops stale rates; called wherever they are looked at, so a table never outlives its limit. */
  const dropIfStale = (): void => {
    if (held === undefined || !isStale(held.loadedAt, clock.now(), opts.staleAfterMs)) return;
    logger.warn(
      { source: source.name, loadedAt: new Date(held.loadedAt).toISOString(), staleAfterMs: opts.staleAfterMs },
      'the server currency rates were not refreshed within auction.currency.stale_after_ms and are dropped: bids needing them fail until a read succeeds',
    );
    held = undefined;
    available.set({}, 0);
  };

  const readOnce = async (): Promise<void> => {
    let text: string;
    // A timer of our own rather than AbortSignal.timeout: that one does not keep the process
    // alive, so a read started with nothing else running would neither end nor time out.
    const timeout = new AbortController();
    const deadline = setTimeout(() => timeout.abort(new Error(`no answer within ${opts.readTimeoutMs} ms`)), opts.readTimeoutMs);
    try {
      text = await source.read(AbortSignal.any([stop.signal, timeout.signal]));
    } catch (err) {
      record('unreadable');
      if (!closed) logger.warn({ source: source.name, err: (err as Error).message, kept: keptAt() }, 'the server currency rates could not be read; the last good rates stay in use');
      return;
    } finally {
      clearTimeout(deadline);
    }
    let doc: RatesDocument;
    try {
      doc = parseRatesDocument(text);
    } catch (err) {
      record('invalid');
      logger.error({ source: source.name, err: (err as Error).message, kept: keptAt() }, 'the server currency rates document is invalid; the last good rates stay in use');
      return;
    }
    const first = held === undefined;
    held = { doc, loadedAt: clock.now() };
    lastGoodAt = held.loadedAt;
    record('ok');
    lastUpdate.set({}, held.loadedAt / 1000);
    available.set({}, 1);
    const info = { source: source.name, currencies: Object.keys(doc.rates).length, dataAsOf: doc.dataAsOf };
    if (first) logger.info(info, 'server currency rates loaded');
    else logger.debug(info, 'server currency rates refreshed');
  };
  const record = (result: RefreshResult): void => refreshes.inc({ result });
  const keptAt = (): string | undefined => (held === undefined ? undefined : new Date(held.loadedAt).toISOString());

  const refresh = (): Promise<void> => {
    if (closed) return Promise.resolve();
    inFlight ??= readOnce().finally(() => {
      inFlight = undefined;
      dropIfStale();
    });
    return inFlight;
  };

  // The next read is planned when the last one ends, so reads never overlap however slow they are.
  const schedule = (): void => {
    if (closed) return;
    timer = setTimeout(() => void refresh().then(schedule), opts.refreshIntervalMs);
    timer.unref();
  };

  return {
    current: () => {
      dropIfStale();
      return held?.doc.rates;
    },
    info: () => {
      dropIfStale();
      return { source: source.name, refreshIntervalMs: opts.refreshIntervalMs, lastUpdatedMs: lastGoodAt, rates: held?.doc.rates };
    },
    refresh,
    start: async () => {
      if (started) return;
      started = true;
      await refresh();
      schedule();
    },
    close: async () => {
      if (closed) return;
      closed = true;
      if (timer !== undefined) clearTimeout(timer);
      stop.abort();
      await inFlight;
    },
  };
};
