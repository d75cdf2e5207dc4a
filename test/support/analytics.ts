import type { EventRecord, RecordCounters } from '../../src/analytics/analytics-module.js';

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
