import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import type { EventRecord } from '../analytics/analytics-module.js';
import { recordJson } from '../analytics/record-json.js';
import { AppError, ErrorCode, isAppError } from '../core/app-error.js';
import { createPrometheusMetrics } from '../metrics/prometheus.js';
import { DEFAULT_ACCOUNT_SETTINGS } from '../stored/account-schema.js';
import { createAccountResolver } from '../stored/account.js';
import type { AccountFetcher, AccountSettings } from '../stored/account.js';
import type { EventRequest } from './event-request.js';
import { createEventService } from './event-service.js';

const win: EventRequest = { type: 'win', account: 'acct', bidId: 'bid1', bidder: 'rubicon', format: 'blank', analytics: true };

/** An event service over `fetcher`, with what it recorded and counted. */
const setUp = (fetcher: AccountFetcher, required = false) => {
  const logged: EventRecord[] = [];
  const metrics = createPrometheusMetrics({ processMetrics: false });
  const events = createEventService({
    resolveAccount: createAccountResolver({ fetcher, defaults: DEFAULT_ACCOUNT_SETTINGS, required }),
    analytics: { logEvent: (r) => void (r.kind === 'event' && logged.push(r)), close: async () => undefined },
    clock: { now: () => 1_700_000_000_123 },
    metrics,
  });
  const count = async (result: string): Promise<number> =>
    Number(new RegExp(`openbid_events_total\\{type="win",result="${result}"\\} (\\d+)`).exec((await metrics.render()).body)?.[1] ?? 0);
  return { events, logged, count };
};

const accounts: Record<string, AccountSettings> = { quiet: { events: { enabled: false } } };
const inProcess: AccountFetcher = { fetch: (id) => accounts[id] };
const remote: AccountFetcher = { fetch: async (id) => accounts[id] };

describe('event service', () => {
  it('records an event at once when the account is known in process', async () => {
    const { events, logged, count } = setUp(inProcess);
    const done = events.handle({ ...win, timestamp: 5 }, { userAgent: 'UA' });
    assert.equal(done, undefined, 'no promise for an in-process account');
    assert.deepEqual(logged, [{ kind: 'event', type: 'win', account: 'acct', bidId: 'bid1', bidder: 'rubicon', timestamp: 5, userAgent: 'UA', receivedAt: 1_700_000_000_123 }]);
    assert.equal(await count('recorded'), 1);
  });

  it('records it once the account arrives from a source that answers later', async () => {
    const { events, logged, count } = setUp(remote);
    const done = events.handle(win, {});
    assert.ok(done instanceof Promise);
    assert.equal(logged.length, 0);
    await done;
    assert.equal(logged.length, 1);
    assert.equal(await count('recorded'), 1);
  });

  for (const [name, fetcher] of [['in process', inProcess], ['later', remote]] as const) {
    it(`refuses an account with events disabled (${name})`, async () => {
      const { events, logged, count } = setUp(fetcher);
      await assert.rejects(
        async () => events.handle({ ...win, account: 'quiet' }, {}),
        (err) => isAppError(err) && err.code === 'UNAUTHORIZED' && err.message === "Account 'quiet' doesn't support events",
      );
      assert.equal(logged.length, 0);
      assert.equal(await count('account_disabled'), 1);
    });

    it(`refuses an unknown account when accounts are required (${name})`, async () => {
      const { events, count } = setUp(fetcher, true);
      await assert.rejects(async () => events.handle(win, {}), (err) => isAppError(err) && err.code === 'UNAUTHORIZED');
      assert.equal(await count('account_unknown'), 1);
    });
  }

  it('passes a failing account source on, counted as account_unknown', async () => {
    const failing: AccountFetcher = { fetch: async () => Promise.reject(new AppError(ErrorCode.BACKEND_TIMEOUT, 'accounts timed out')) };
    const { events, logged, count } = setUp(failing);
    await assert.rejects(async () => events.handle(win, {}), (err) => isAppError(err) && err.code === 'BACKEND_TIMEOUT');
    assert.equal(logged.length, 0);
    assert.equal(await count('account_unknown'), 1);
  });

  it('with x=0 answers without looking the account up or telling analytics', async () => {
    let lookups = 0;
    const { events, logged, count } = setUp({ fetch: () => (lookups++, undefined) }, true);
    assert.equal(events.handle({ ...win, analytics: false }, {}), undefined);
    assert.equal(lookups, 0);
    assert.equal(logged.length, 0);
    assert.equal(await count('not_recorded'), 1);
  });

  it('builds records that recordJson writes exactly as JSON.stringify does, escapes included', () => {
    const { events, logged } = setUp(inProcess);
    const odd = ['quote " and \\ backslash', 'tab\tnew\nline\u0001', 'é😀 ü', 'lone \ud800 surrogate', '</script>', ''];
    const optional = [{}, { timestamp: 1_700_000_000_000 }, { integration: 'pbjs-9' }, { auctionId: 'auc-1' }, { timestamp: 0, integration: 'x', auctionId: 'a' }];
    for (const extra of optional) {
      for (const ua of [undefined, 'Mozilla/5.0 (X11; Linux x86_64)', ...odd]) assert.equal(events.handle({ ...win, ...extra }, ua === undefined ? {} : { userAgent: ua }), undefined);
    }
    for (const text of odd) assert.equal(events.handle({ ...win, bidId: text || 'b', bidder: text || 'x', auctionId: text }, {}), undefined);
    assert.equal(logged.length, optional.length * (odd.length + 2) + odd.length);
    for (const record of logged) assert.equal(recordJson(record), JSON.stringify(record));
  });
});
