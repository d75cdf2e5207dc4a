import type { Analytics } from '../analytics/runner.js';
import { AppError, ErrorCode } from '../core/app-error.js';
import type { Clock } from '../core/clock.js';
import type { Metrics } from '../metrics/metrics.js';
import type { AccountResolver } from '../stored/account.js';
import type { EventRequest } from './event-request.js';

export interface EventServiceOptions {
  readonly resolveAccount: AccountResolver;
  readonly analytics: Analytics;
  readonly clock: Clock;
  readonly metrics: Metrics;
}

/** What the caller's request says beyond the query. */
export interface EventContext {
  readonly userAgent?: string;
}

type Result = 'recorded' | 'not_recorded' | 'account_disabled' | 'account_unknown';

/**
 * Takes a win or impression event and passes it to analytics. With `x=0` the event is
 * acknowledged and nothing else happens, not even the account lookup (as Prebid Server does). An
 * account with events disabled is refused (`UNAUTHORIZED`), as is an unknown account when
 * accounts are required.
 */
export const createEventService = (opts: EventServiceOptions) => {
  const events = opts.metrics.counter({
    name: 'openbid_events_total',
    help: 'Events received on /event by type and result (recorded, not_recorded for x=0, account_disabled, account_unknown).',
    labelNames: ['type', 'result'],
  });
  const count = (type: string, result: Result): void => events.inc({ type, result });

  return {
    async handle(req: EventRequest, ctx: EventContext): Promise<void> {
      if (!req.analytics) {
        count(req.type, 'not_recorded');
        return;
      }
      let account;
      try {
        account = await opts.resolveAccount(req.account);
      } catch (err) {
        count(req.type, 'account_unknown');
        throw err;
      }
      if (!account.events.enabled) {
        count(req.type, 'account_disabled');
        throw new AppError(ErrorCode.UNAUTHORIZED, `Account '${req.account}' doesn't support events`);
      }
      opts.analytics.logEvent({
        kind: 'event',
        type: req.type,
        account: req.account,
        bidId: req.bidId,
        bidder: req.bidder,
        ...(req.auctionId !== undefined ? { auctionId: req.auctionId } : {}),
        ...(req.timestamp !== undefined ? { timestamp: req.timestamp } : {}),
        ...(req.integration !== undefined ? { integration: req.integration } : {}),
        ...(ctx.userAgent !== undefined ? { userAgent: ctx.userAgent } : {}),
        receivedAt: opts.clock.now(),
      });
      count(req.type, 'recorded');
    },
  };
};

export type EventService = ReturnType<typeof createEventService>;
