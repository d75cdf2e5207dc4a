import assert from 'node:assert/strict';
import { mkdtempSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, it } from 'node:test';
import { countingCounters, eventRecord } from '../../../../test/support/analytics.js';
import { waitFor } from '../../../../test/support/ports.js';
import { silentLogger } from '../../../core/logger.js';
import { createFileModule } from './file-module.js';

const tempPath = (): string => join(mkdtempSync(join(tmpdir(), 'openbid-analytics-')), 'events.jsonl');
const lines = (path: string): string[] => readFileSync(path, 'utf8').split('\n').filter((l) => l !== '');

describe('file analytics module', () => {
  it('appends one JSON object per line, flushed by the interval', async () => {
    const path = tempPath();
    const counters = countingCounters();
    const m = await createFileModule({ path, flushIntervalMs: 50, maxBufferBytes: 1 << 20, counters, logger: silentLogger });
    m.logEvent(eventRecord(1));
    m.logEvent(eventRecord(2));
    assert.deepEqual(lines(path), [], 'nothing is written synchronously');
    // The interval's write, whenever a loaded machine gets to it (nothing else writes before close):
    // the lines on disk, and the count, which follows once the write has returned.
    await waitFor('the interval to write both records', async () => lines(path).length >= 2 && counters.totals.written >= 2, 5000);
    assert.deepEqual(lines(path).map((l) => JSON.parse(l) as unknown), [eventRecord(1), eventRecord(2)]);
    assert.equal(counters.totals.written, 2);
    await m.close();
  });

  it('writes everything taken before close, and appends to an existing file', async () => {
    const path = tempPath();
    const first = await createFileModule({ path, flushIntervalMs: 60_000, maxBufferBytes: 1 << 20, counters: countingCounters(), logger: silentLogger });
    first.logEvent(eventRecord(1));
    await first.close();
    const counters = countingCounters();
    const second = await createFileModule({ path, flushIntervalMs: 60_000, maxBufferBytes: 1 << 20, counters, logger: silentLogger });
    for (let i = 2; i <= 5; i++) second.logEvent(eventRecord(i));
    await second.close();
    assert.deepEqual(lines(path).map((l) => (JSON.parse(l) as { bidId: string }).bidId), ['bid-1', 'bid-2', 'bid-3', 'bid-4', 'bid-5']);
    second.logEvent(eventRecord(6));
    assert.equal(counters.totals.dropped, 1, 'a record after close is dropped and counted');
  });

  it('never splits or interleaves lines under a burst of records', async () => {
    const path = tempPath();
    const counters = countingCounters();
    const m = await createFileModule({ path, flushIntervalMs: 5, maxBufferBytes: 64 << 20, counters, logger: silentLogger });
    for (let i = 0; i < 20_000; i++) {
      m.logEvent({ ...eventRecord(i), userAgent: 'é🎉x'.repeat(i % 100) });
      if (i % 1000 === 0) await new Promise((r) => setImmediate(r));
    }
    await m.close();
    const got = lines(path).map((l) => (JSON.parse(l) as { bidId: string }).bidId);
    assert.equal(got.length, 20_000);
    assert.deepEqual(got, Array.from({ length: 20_000 }, (_, i) => `bid-${i}`));
    assert.equal(counters.totals.written, 20_000);
  });

  it('drops and counts records beyond max_buffer_bytes', async () => {
    const path = tempPath();
    const counters = countingCounters();
    const lineBytes = JSON.stringify(eventRecord(1)).length + 1;
    const m = await createFileModule({ path, flushIntervalMs: 60_000, maxBufferBytes: lineBytes * 3 + 5, counters, logger: silentLogger });
    for (let i = 1; i <= 10; i++) m.logEvent(eventRecord(i));
    assert.equal(counters.totals.dropped, 7);
    await m.close();
    assert.equal(lines(path).length, 3);
    assert.equal(counters.totals.written, 3);
  });

  it('counts records it cannot write (a full disk) as dropped, and keeps running', async () => {
    const counters = countingCounters();
    const m = await createFileModule({ path: '/dev/full', flushIntervalMs: 60_000, maxBufferBytes: 1 << 20, counters, logger: silentLogger });
    m.logEvent(eventRecord(1));
    m.logEvent(eventRecord(2));
    await m.close();
    assert.deepEqual(counters.totals, { written: 0, dropped: 2 });
  });

  it('refuses to start on a path it cannot open', async () => {
    await assert.rejects(
      createFileModule({ path: '/nonexistent-dir/events.jsonl', flushIntervalMs: 1000, maxBufferBytes: 1024, counters: countingCounters(), logger: silentLogger }),
      /ENOENT/,
    );
  });
});
