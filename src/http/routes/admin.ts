import type { ServerRatesInfo } from '../../auction/server-rates.js';
import type { Metrics } from '../../metrics/metrics.js';
import type { Answer } from '../answer.js';

const JSON_TYPE = 'application/json';
/** What Go's `time.Time{}` marshals to: Prebid Server's `lastUpdated` before any good read. */
const GO_ZERO_TIME = '0001-01-01T00:00:00Z';
const NS_PER_MS = 1_000_000;

/**
 * `GET /version` (Prebid Server's shape): `{"revision": "...", "version": "..."}`. An empty value
 * answers `not-set`, as Prebid Server does; callers pass `unknown` when the build knew no revision.
 */
export const versionAnswer = (version: string, revision: string): Answer => ({
  status: 200,
  contentType: JSON_TYPE,
  body: JSON.stringify({ revision: revision || 'not-set', version: version || 'not-set' }),
});

/**
 * `GET /currency/rates` (Prebid Server's admin endpoint): `{"active": false}` when no rates source
 * is configured; else `active`, `source`, `fetchingIntervalNs` (the refresh interval in
 * nanoseconds, Go's `time.Duration`), `lastUpdated` (RFC 3339, Go's zero time before any good
 * read) and `rates` (`{"USD": {"EUR": 0.9}}`, omitted when none are in use: never read, or dropped
 * as stale). Unlike Prebid Server, which snapshots them when it starts, the answer is the rates in
 * use at the moment of asking.
 */
export const currencyRatesAnswer = (info: ServerRatesInfo | undefined): Answer => {
  const body =
    info === undefined
      ? { active: false }
      : {
          active: true,
          source: info.source,
          fetchingIntervalNs: info.refreshIntervalMs * NS_PER_MS,
          lastUpdated: info.lastUpdatedMs === undefined ? GO_ZERO_TIME : new Date(info.lastUpdatedMs).toISOString(),
          ...(info.rates === undefined ? {} : { rates: info.rates }),
        };
  return { status: 200, contentType: JSON_TYPE, body: JSON.stringify(body) };
};

/** `GET /metrics`: whatever the metrics registry renders (the public port answers the same with `server.metrics_on_public_port`). */
export const metricsAnswer = async (metrics: Metrics): Promise<Answer> => {
  const { contentType, body } = await metrics.render();
  return { status: 200, contentType, body };
};
