import type { EventRecord } from '../analytics/analytics-module.js';
import type { Analytics } from '../analytics/runner.js';
import { AppError, ErrorCode } from '../core/app-error.js';
import type { Clock } from '../core/clock.js';
import { boundGrid } from '../metrics/metrics.js';
import type { Metrics } from '../metrics/metrics.js';
import type { MaybePromise } from '../core/maybe-promise.js';
import type { Account, AccountResolver } from '../stored/account.js';
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

const RESULTS = ['recorded', 'not_recorded', 'account_disabled', 'account_unknown'] as const;
type Result = (typeof RESULTS)[number];

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
  const bound = boundGrid(events, 'type', ['win', 'imp'] as const, 'result', RESULTS);
  const count = (type: 'win' | 'imp', result: Result): void => bound[type][result].inc();

  return {
    /** Done (or refused) directly when the account is known in process, else with a promise. */
    handle(req: EventRequest, ctx: EventContext): MaybePromise<void> {
      if (!req.analytics) {
        count(req.type, 'not_recorded');
        return;
      }
      let account: MaybePromise<Account>;
      try {
        account = opts.resolveAccount(req.account);
      } catch (err) {
        count(req.type, 'account_unknown');
        throw err;
      }
      return account instanceof Promise
        ? account.then(
            (a) => recordEvent(req, ctx, a),
            (err: unknown) => {
              count(req.type, 'account_unknown');
              throw err;
            },
          )
        : recordEvent(req, ctx, account);
    },
  };

  function recordEvent(req: EventRequest, ctx: EventContext, account: Account): void {
    if (!account.events.enabled) {
      count(req.type, 'account_disabled');
      throw new AppError(ErrorCode.UNAUTHORIZED, `Account '${req.account}' doesn't support events`);
    }
    // Optional fields are set only when present (no undefined keys in the written record).
    const entry: { -readonly [K in keyof EventRecord]: EventRecord[K] } = { kind: 'event', type: req.type, account: req.account, bidId: req.bidId, bidder: req.bidder, receivedAt: 0 };
    if (req.auctionId !== undefined) entry.auctionId = req.auctionId;
    if (req.timestamp !== undefined) entry.timestamp = req.timestamp;
    if (req.integration !== undefined) entry.integration = req.integration;
    if (ctx.userAgent !== undefined) entry.userAgent = ctx.userAgent;
    entry.receivedAt = opts.clock.now();
    opts.analytics.logEvent(entry);
    count(req.type, 'recorded');
  }
};

export type EventService = ReturnType<typeof createEventService>;
