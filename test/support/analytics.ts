import { mkdtempSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { EventRecord, RecordCounters } from '../../src/analytics/analytics-module.js';

/** A fresh path for the file module's JSON lines, in a new temporary folder. */
export const tempRecordsPath = (prefix = 'openbid-records-'): string => join(mkdtempSync(join(tmpdir(), prefix)), 'records.jsonl');

/** The records the file module wrote to `path`, one parsed JSON line each. */
export const readRecordLines = (path: string): Record<string, unknown>[] =>
  readFileSync(path, 'utf8')
    .split('\n')
    .filter((l) => l !== '')
    .map((l) => JSON.parse(l) as Record<string, unknown>);

/** Counters that remember their totals, for asserting what a module reported. */
export const countingCounters = (): RecordCounters & { readonly totals: { written: number; dropped: number } } => {
  const totals = { written: 0, dropped: 0 };
  return { totals, written: (n = 1) => void (totals.written += n), dropped: (n = 1) => void (totals.dropped += n) };
};

export const eventRecord = (i: number): EventRecord => ({
  kind: 'event',
  type: i % 2 === 0 ? 'win' : 'imp',
  account: 'acc',
  bidId: `bid-${i}`,
  bidder: 'appnexus',
  receivedAt: 1_700_000_000_000 + i,
});
