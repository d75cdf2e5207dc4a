import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { countingCounters, eventRecord } from '../../../../test/support/analytics.js';
import { startCollector } from '../../../../test/support/collector.js';
import type { Collector } from '../../../../test/support/collector.js';
import { freePort, waitFor } from '../../../../test/support/ports.js';
import { silentLogger } from '../../../core/logger.js';
import { createHttpModule } from './http-module.js';
import type { HttpModuleOptions } from './http-module.js';

const options = (endpoint: string, over: Partial<HttpModuleOptions> = {}): HttpModuleOptions => ({
  endpoint,
  batchSize: 100,
  flushIntervalMs: 20,
  maxQueueSize: 1000,
  timeoutMs: 1000,
  maxRetries: 5,
  retryBackoffMs: 10,
  closeDeadlineMs: 2000,
  counters: countingCounters(),
  logger: silentLogger,
  ...over,
});

const ids = (batch: unknown[]): string[] => batch.map((r) => (r as { bidId: string }).bidId);

describe('http analytics module', () => {
  let collector: Collector;
  before(async () => {
    collector = await startCollector();
  });
  after(async () => {
    await collector.close();
  });

  it('retries a batch the endpoint fails, and delivers it once it succeeds', async () => {
    collector.received.length = 0;
    collector.respondWith((attempt) => (attempt <= 2 ? 503 : 200));
    const counters = countingCounters();
    const m = createHttpModule(options(collector.url, { counters }));
    for (let i = 0; i < 3; i++) m.logEvent(eventRecord(i));
    await waitFor('delivery', async () => counters.totals.written === 3, 5000);
    assert.equal(collector.received.length, 3, 'two failed attempts, then the success');
    for (const batch of collector.received) assert.deepEqual(ids(batch), ['bid-0', 'bid-1', 'bid-2']);
    assert.deepEqual(collector.received[2], [0, 1, 2].map(eventRecord));
    assert.equal(counters.totals.dropped, 0);
    await m.close();
  });

  it('sends full batches of batch_size and the rest on the interval', async () => {
    collector.received.length = 0;
    collector.respondWith(() => 200);
    const counters = countingCounters();
    const m = createHttpModule(options(collector.url, { counters, batchSize: 100 }));
    for (let i = 0; i < 250; i++) m.logEvent(eventRecord(i));
    await waitFor('all delivered', async () => counters.totals.written === 250, 5000);
    assert.deepEqual(collector.received.map((b) => b.length), [100, 100, 50]);
    assert.deepEqual(collector.received.flatMap(ids), Array.from({ length: 250 }, (_, i) => `bid-${i}`));
    await m.close();
  });

  it('keeps sending after the interval has found the queue empty', async () => {
    collector.received.length = 0;
    collector.respondWith(() => 200);
    const counters = countingCounters();
    const m = createHttpModule(options(collector.url, { counters, batchSize: 1, flushIntervalMs: 5 }));
    for (let round = 1; round <= 2; round++) {
      // Several empty flushes first (under load they come later, which only delays the record).
      await new Promise((resolve) => setTimeout(resolve, 50));
      m.logEvent(eventRecord(round));
      await waitFor(`record ${round} delivered`, async () => counters.totals.written === round, 5000);
    }
    assert.deepEqual(collector.received.flatMap(ids), ['bid-1', 'bid-2']);
    await m.close();
  });

  it('drops a batch the endpoint refuses (4xx) without retrying', async () => {
    collector.received.length = 0;
    collector.respondWith(() => 400);
    const counters = countingCounters();
    const m = createHttpModule(options(collector.url, { counters }));
    m.logEvent(eventRecord(1));
    // The drop is the module's decision not to retry: a module that retried a 400 would have sent
    // the batch max_retries more times (each refused too) before dropping it.
    await waitFor('dropped', async () => counters.totals.dropped === 1, 5000);
    assert.equal(collector.received.length, 1);
    await m.close();
  });

  it('retries 429 and gives up after max_retries', async () => {
    collector.received.length = 0;
    collector.respondWith(() => 429);
    const counters = countingCounters();
    const m = createHttpModule(options(collector.url, { counters, maxRetries: 3 }));
    m.logEvent(eventRecord(1));
    await waitFor('given up', async () => counters.totals.dropped === 1, 5000);
    assert.equal(collector.received.length, 4, 'one attempt and three retries');
    await m.close();
  });

  it('retries when nothing listens, then drops', async () => {
    const counters = countingCounters();
    const m = createHttpModule(options(`http://127.0.0.1:${await freePort()}/collect`, { counters, maxRetries: 2 }));
    m.logEvent(eventRecord(1));
    await waitFor('dropped', async () => counters.totals.dropped === 1, 5000);
    assert.equal(counters.totals.written, 0);
    await m.close();
  });

  it('keeps its queue bounded while the endpoint hangs, and close gives up at its deadline', async () => {
    collector.received.length = 0;
    collector.respondWith(() => 'hang');
    const counters = countingCounters();
    const m = createHttpModule(options(collector.url, { counters, batchSize: 10, maxQueueSize: 50, timeoutMs: 60_000, closeDeadlineMs: 300 }));
    for (let i = 0; i < 10; i++) m.logEvent(eventRecord(i)); // the first batch goes out and hangs
    await waitFor('first batch sent', async () => collector.received.length === 1, 5000);
    for (let i = 10; i < 100; i++) m.logEvent(eventRecord(i));
    assert.equal(counters.totals.dropped, 40, '50 queued behind the hanging batch, 40 refused');
    const started = Date.now();
    await m.close();
    assert.ok(Date.now() - started < 1500, `close took ${Date.now() - started} ms`);
    assert.equal(counters.totals.written, 0);
    assert.equal(counters.totals.dropped, 100, 'every record is accounted for');
  });

  it('sends what is queued when closed', async () => {
    collector.received.length = 0;
    collector.respondWith(() => 200);
    const counters = countingCounters();
    const m = createHttpModule(options(collector.url, { counters, flushIntervalMs: 60_000 }));
    for (let i = 0; i < 5; i++) m.logEvent(eventRecord(i));
    await m.close();
    assert.equal(counters.totals.written, 5);
    assert.deepEqual(collector.received.flatMap(ids), ['bid-0', 'bid-1', 'bid-2', 'bid-3', 'bid-4']);
  });
});

describe('http analytics module over a long outage', () => {
  it('does not pile up listeners across many retries', async () => {
    const warnings: string[] = [];
    const onWarning = (w: Error): void => void warnings.push(w.message);
    process.on('warning', onWarning);
    try {
      const counters = countingCounters();
      // 12 backoff sleeps (Node warns from 11 listeners on); the doubling backoff adds up to ~4 s.
      const m = createHttpModule(options(`http://127.0.0.1:${await freePort()}/collect`, { counters, maxRetries: 12, retryBackoffMs: 1, batchSize: 1 }));
      m.logEvent(eventRecord(1));
      await waitFor('given up after 12 retries', async () => counters.totals.dropped === 1, 20_000);
      await m.close();
      await new Promise((r) => setImmediate(r));
      assert.deepEqual(warnings.filter((w) => /leak/i.test(w)), []);
    } finally {
      process.off('warning', onWarning);
    }
  });
});
