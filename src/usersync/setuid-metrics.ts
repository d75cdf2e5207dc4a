import type { Metrics } from '../metrics/metrics.js';

/**
 * How one `/setuid` ended: `ok` (id written), `cleared` (empty uid: id removed), `ignored`
 * (Audience Network's `0`, which means "not yet recognised": nothing written), `opted_out` (401),
 * `unknown_bidder` and `bad_request` (400), `account_refused` (400: unknown account where accounts
 * are required, or its stored settings are invalid), `privacy` (451: TCF or the `syncUser`
 * activity), `too_large` (400: the id alone does not fit `host_cookie.max_cookie_size_bytes`).
 */
export type SetuidReason = 'ok' | 'cleared' | 'ignored' | 'opted_out' | 'unknown_bidder' | 'bad_request' | 'account_refused' | 'privacy' | 'too_large';

/** Label for a `bidder` that names no known cookie family: keeps the label set bounded. */
export const UNKNOWN_FAMILY_LABEL = 'unknown';

/** `/setuid`'s instrument. */
export interface SetuidMetrics {
  /** `family` must be a known cookie family or {@link UNKNOWN_FAMILY_LABEL}. */
  result(family: string, reason: SetuidReason): void;
}

export const createSetuidMetrics = (metrics: Metrics): SetuidMetrics => {
  const results = metrics.counter({
    name: 'openbid_setuid_requests_total',
    help: '/setuid requests by cookie family (unknown for a bidder that names none) and result.',
    labelNames: ['bidder', 'result'],
  });
  return { result: (bidder, result) => results.inc({ bidder, result }) };
};
