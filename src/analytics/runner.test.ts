import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { silentLogger } from '../core/logger.js';
import { createPrometheusMetrics } from '../metrics/prometheus.js';
import type { AnalyticsModule, EventRecord } from './analytics-module.js';
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
