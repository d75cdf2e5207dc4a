/** A win or impression notification received on `/event`. */
export interface EventRecord {
  readonly kind: 'event';
  readonly type: 'win' | 'imp';
  readonly account: string;
  readonly bidId: string;
  readonly bidder: string;
  /** `aid`: the auction the bid came from, when the caller sent it. */
  readonly auctionId?: string;
  /** `ts`: the auction's timestamp in ms, when the caller sent it. */
  readonly timestamp?: number;
  /** `int`: the integration that sent the event (e.g. a Prebid.js build). */
  readonly integration?: string;
  readonly userAgent?: string;
  /** When this server received the event, in ms since the epoch. */
  readonly receivedAt: number;
}

/** Every kind of record analytics modules receive (auction and AMP records come with the auction). */
export type AnalyticsRecord = EventRecord;

/**
 * Port: an analytics module, fed by the runner.
 *
 * Contract:
 * - `logEvent` returns at once: it may buffer, never waits for I/O, and must not throw (the runner
 *   counts and swallows a throw, so one bad module never fails a request or starves the others).
 * - Memory is bounded: records beyond the module's buffer are dropped and counted, never kept
 *   without limit.
 * - `close` writes out what was taken (within the module's own time limits), counts what it could
 *   not, and releases files and connections; records logged after `close` are dropped.
 */
export interface AnalyticsModule {
  readonly name: string;
  logEvent(record: EventRecord): void;
  close(): Promise<void>;
}

/** What a module reports of each record: written out, or dropped (buffer full, endpoint refusing). */
export interface RecordCounters {
  written(n?: number): void;
  dropped(n?: number): void;
}
