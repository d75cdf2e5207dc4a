import type { Clock } from '../../core/clock.js';
import type { Logger } from '../../core/logger.js';
import type { Metrics } from '../../metrics/metrics.js';
import { createServerRates } from '../server-rates.js';
import type { ServerRates } from '../server-rates.js';
import { createFileRatesSource } from './file-rates-source.js';
import { createHttpRatesSource } from './http-rates-source.js';

/** The configuration's `auction.currency` section, as `src/config/schema.ts` defines it. */
export interface CurrencyConfigSlice {
  readonly file: string;
  readonly url: string;
  readonly refresh_interval_ms: number;
  readonly fetch_timeout_ms: number;
  readonly stale_after_ms: number;
}

/** No source configured: never any rates, nothing to refresh or stop. */
const NO_SERVER_RATES: ServerRates = Object.freeze({
  current: () => undefined,
  info: () => undefined,
  refresh: () => Promise.resolve(),
  start: () => Promise.resolve(),
  close: () => Promise.resolve(),
});

/**
 * The server's currency rates from `auction.currency`: the file or the URL, read before this
 * resolves (a failure is logged, never fatal: conversions then need the request's own rates) and
 * then every `refresh_interval_ms`. Neither configured: no server rates.
 */
export const createServerRatesFromConfig = async (cfg: CurrencyConfigSlice, deps: { clock: Clock; logger: Logger; metrics: Metrics }): Promise<ServerRates> => {
  // The config check refuses both at once; the URL wins here only to be total.
  const source = cfg.url !== '' ? createHttpRatesSource(cfg.url) : cfg.file !== '' ? createFileRatesSource(cfg.file) : undefined;
  if (source === undefined) return NO_SERVER_RATES;
  const rates = createServerRates({
    source,
    refreshIntervalMs: cfg.refresh_interval_ms,
    readTimeoutMs: cfg.fetch_timeout_ms,
    staleAfterMs: cfg.stale_after_ms,
    ...deps,
  });
  await rates.start();
  return rates;
};
