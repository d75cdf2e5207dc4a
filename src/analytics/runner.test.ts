import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { silentLogger } from '../core/logger.js';
import { createPrometheusMetrics } from '../metrics/prometheus.js';
import type { AnalyticsModule, AnalyticsRecord, AuctionRecord, EventRecord } from './analytics-module.js';
import { CUT_MARKER, MAX_RECORD_STRING, MAX_RECORD_USER_AGENT, cutString } from './bounded-record.js';
import { createAnalyticsRunner } from './runner.js';

const record: EventRecord = { kind: 'event', type: 'win', account: 'a', bidId: 'b', bidder: 'x', receivedAt: 1 };

describe('analytics runner', () => {
  it('gives every module the record even when one throws, and counts the failure', async () => {
    const got: string[] = [];
    const closed: string[] = [];
    const module = (name: string, fail = false): AnalyticsModule => ({
      name,
      logEvent: (r) => {
        if (fail) throw new Error('boom');
        got.push(`${name}:${r.kind === 'event' ? r.bidId : r.auctionId}`);
      },
      close: async () => void closed.push(name),
    });
    const metrics = createPrometheusMetrics({ processMetrics: false });
    const runner = createAnalyticsRunner([module('one'), module('bad', true), module('two')], { metrics, logger: silentLogger });
    assert.doesNotThrow(() => runner.logEvent(record));
    assert.deepEqual(got, ['one:b', 'two:b']);
    assert.match((await metrics.render()).body, /openbid_analytics_records_total\{module="bad",result="failed"\} 1/);
    await runner.close();
    assert.deepEqual(closed.sort(), ['bad', 'one', 'two']);
  });

  it('gives the record only to the modules allow accepts (privacy refuses the others)', () => {
    const got: string[] = [];
    const module = (name: string): AnalyticsModule => ({ name, logEvent: () => void got.push(name), close: async () => undefined });
    const runner = createAnalyticsRunner([module('file'), module('http')], { metrics: createPrometheusMetrics({ processMetrics: false }), logger: silentLogger });
    runner.logEvent(record, (name) => name === 'http');
    assert.deepEqual(got, ['http']);
    runner.logEvent(record);
    assert.deepEqual(got, ['http', 'file', 'http']);
  });
});

describe('analytics runner: bounded strings', () => {
  const capture = () => {
    const got: AnalyticsRecord[] = [];
    const runner = createAnalyticsRunner([{ name: 'file', logEvent: (r) => void got.push(r), close: async () => undefined }], {
      metrics: createPrometheusMetrics({ processMetrics: false }),
      logger: silentLogger,
    });
    return { got, runner };
  };

  it('hands a record with nothing long on as it is (no copy)', () => {
    const { got, runner } = capture();
    runner.logEvent(record);
    assert.equal(got[0], record);
  });

  it('cuts every long string of an event to 256 characters and marks it; the user agent to 512', () => {
    const { got, runner } = capture();
    const huge = 'x'.repeat(500_000);
    runner.logEvent({ kind: 'event', type: 'imp', account: 'a', bidId: huge, bidder: huge, auctionId: huge, timestamp: 5, userAgent: huge, receivedAt: 1 });
    const cut = `${'x'.repeat(MAX_RECORD_STRING)}${CUT_MARKER}`;
    assert.deepEqual(got[0], { kind: 'event', type: 'imp', account: 'a', bidId: cut, bidder: cut, receivedAt: 1, auctionId: cut, timestamp: 5, userAgent: `${'x'.repeat(MAX_RECORD_USER_AGENT)}${CUT_MARKER}` });
  });

  it('cuts the strings of an auction record: account, ids, currency, tag, errors, bidder codes, deal ids', () => {
    const { got, runner } = capture();
    const huge = 'y'.repeat(300_000);
    const auction: AuctionRecord = {
      kind: 'amp',
      account: huge,
      auctionId: huge,
      status: 200,
      currency: huge,
      bidders: [{ bidder: huge, outcome: 'bid', bids: 1, responseTimeMs: 3 }, { bidder: 'short', outcome: 'no-bid', bids: 0, responseTimeMs: 2 }],
      winners: [{ impId: huge, bidder: huge, bidId: huge, price: 1, dealId: huge }],
      tagId: huge,
      errors: [huge, 'fine'],
      receivedAt: 1,
      durationMs: 2,
    };
    runner.logEvent(auction);
    const json = JSON.stringify(got[0]);
    assert.ok(json.length < 20 * (MAX_RECORD_STRING + 2) + 400, `record is ${json.length} characters`);
    assert.ok(!json.includes('y'.repeat(MAX_RECORD_STRING + 1)));
    const cut = `${'y'.repeat(MAX_RECORD_STRING)}${CUT_MARKER}`;
    const r = got[0] as AuctionRecord;
    assert.deepEqual([r.account, r.auctionId, r.currency, r.tagId, r.errors, r.bidders[0]?.bidder, r.bidders[1]?.bidder], [cut, cut, cut, cut, [cut, 'fine'], cut, 'short']);
    assert.deepEqual(r.winners, [{ impId: cut, bidder: cut, bidId: cut, price: 1, dealId: cut }]);
  });

  it('never splits a surrogate pair', () => {
    const s = `${'a'.repeat(MAX_RECORD_STRING - 1)}😀tail`;
    assert.equal(cutString(s, MAX_RECORD_STRING), `${'a'.repeat(MAX_RECORD_STRING - 1)}${CUT_MARKER}`);
  });
});
