import type { Metrics } from '../metrics/metrics.js';
import type { SyncStatus } from './chooser.js';

/** How a `/cookie_sync` request ended (Prebid Server's cookie sync statuses). */
export type CookieSyncResult = 'ok' | 'bad_request' | 'opt_out' | 'gdpr_blocked_host_cookie' | 'account_invalid';

/** `/cookie_sync`'s instruments. Labels are bounded: cookie families are the configured ones. */
export interface CookieSyncMetrics {
  request(result: CookieSyncResult): void;
  /** One bidder evaluated for a sync, by its family and what came of it. */
  syncer(family: string, status: SyncStatus): void;
}

const OUTCOME: Partial<Record<SyncStatus, string>> = {
  ok: 'ok',
  'blocked-by-privacy': 'privacy_blocked',
  'already-synced': 'already_synced',
  'rejected-by-filter': 'rejected_by_filter',
};

export const createCookieSyncMetrics = (metrics: Metrics): CookieSyncMetrics => {
  const requests = metrics.counter({ name: 'openbid_cookie_sync_requests_total', help: '/cookie_sync requests by result.', labelNames: ['result'] });
  const syncers = metrics.counter({
    name: 'openbid_cookie_sync_syncers_total',
    help: 'Bidders /cookie_sync evaluated, by cookie family and outcome (ok: a sync was offered).',
    labelNames: ['family', 'outcome'],
  });
  return {
    request: (result) => requests.inc({ result }),
    syncer: (family, status) => {
      const outcome = OUTCOME[status];
      if (outcome !== undefined) syncers.inc({ family, outcome });
    },
  };
};
