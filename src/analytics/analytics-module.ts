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

/** One bidder's part in an auction record. */
export interface AuctionBidderRecord {
  readonly bidder: string;
  /** `bid` with bids, else why not: no bid, timed out, failed (code 3/999), or bad params (code 2). */
  readonly outcome: 'bid' | 'no-bid' | 'timeout' | 'error' | 'bad-input';
  readonly bids: number;
  readonly responseTimeMs: number;
}

/** An imp's winning bid, in the auction's currency. */
export interface AuctionWinnerRecord {
  readonly impId: string;
  readonly bidder: string;
  readonly bidId: string;
  readonly price: number;
  readonly dealId?: string;
}

/**
 * An auction (`POST /openrtb2/auction`) or an AMP auction (`GET /openrtb2/amp`), once answered.
 * It carries no personal data (no IP, device or user ids, consent strings), so modules may keep it.
 */
export interface AuctionRecord {
  readonly kind: 'auction' | 'amp';
  readonly account: string;
  /** The request's `id`. */
  readonly auctionId: string;
  /** The HTTP status the caller got. */
  readonly status: number;
  readonly currency: string;
  readonly bidders: readonly AuctionBidderRecord[];
  readonly winners: readonly AuctionWinnerRecord[];
  /** AMP only: the stored request's id. */
  readonly tagId?: string;
  /** Request-level errors (validation, stored data) when the auction did not run. */
  readonly errors?: readonly string[];
  readonly receivedAt: number;
  readonly durationMs: number;
}

/** Every kind of record analytics modules receive. */
export type AnalyticsRecord = EventRecord | AuctionRecord;

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
  logEvent(record: AnalyticsRecord): void;
  close(): Promise<void>;
}

/** What a module reports of each record: written out, or dropped (buffer full, endpoint refusing). */
export interface RecordCounters {
  written(n?: number): void;
  dropped(n?: number): void;
}
