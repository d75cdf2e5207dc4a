import type { AnalyticsRecord, AuctionBidderRecord, AuctionRecord, AuctionWinnerRecord, EventRecord } from './analytics-module.js';

/** Longest string a record keeps from a request or a bidder (ids, codes, currency, errors), in UTF-16 units. */
export const MAX_RECORD_STRING = 256;
/** Longest user agent a record keeps: real ones run past 256 characters. */
export const MAX_RECORD_USER_AGENT = 512;
/** Ends a string that was cut, so a reader knows it is not the whole value. */
export const CUT_MARKER = '…';

/** `s` cut to `max` units plus the marker, never splitting a surrogate pair; `s` itself when short enough. */
export const cutString = (s: string, max: number): string => {
  if (s.length <= max) return s;
  const end = s.charCodeAt(max - 1) >= 0xd800 && s.charCodeAt(max - 1) <= 0xdbff ? max - 1 : max;
  return s.slice(0, end) + CUT_MARKER;
};

const over = (s: string | undefined, max = MAX_RECORD_STRING): boolean => s !== undefined && s.length > max;

const boundedEvent = (r: EventRecord): EventRecord => {
  // The hot path (/event): a handful of length checks, and the record itself when nothing is long.
  if (!over(r.account) && !over(r.bidId) && !over(r.bidder) && !over(r.auctionId) && !over(r.integration) && !over(r.userAgent, MAX_RECORD_USER_AGENT)) return r;
  const out: { -readonly [K in keyof EventRecord]: EventRecord[K] } = {
    kind: r.kind,
    type: r.type,
    account: cutString(r.account, MAX_RECORD_STRING),
    bidId: cutString(r.bidId, MAX_RECORD_STRING),
    bidder: cutString(r.bidder, MAX_RECORD_STRING),
    receivedAt: r.receivedAt,
  };
  // Same members in the same order as the event service writes them (record-json relies on neither, but keeps it tidy).
  if (r.auctionId !== undefined) out.auctionId = cutString(r.auctionId, MAX_RECORD_STRING);
  if (r.timestamp !== undefined) out.timestamp = r.timestamp;
  if (r.integration !== undefined) out.integration = cutString(r.integration, MAX_RECORD_STRING);
  if (r.userAgent !== undefined) out.userAgent = cutString(r.userAgent, MAX_RECORD_USER_AGENT);
  return out;
};

const cut = (s: string): string => cutString(s, MAX_RECORD_STRING);
const cutOptional = (s: string | undefined): string | undefined => (s === undefined ? undefined : cut(s));

const bidderOver = (b: AuctionBidderRecord): boolean => over(b.bidder);
const winnerOver = (w: AuctionWinnerRecord): boolean => over(w.impId) || over(w.bidder) || over(w.bidId) || over(w.dealId);

const boundedAuction = (r: AuctionRecord): AuctionRecord => {
  if (
    !over(r.account) &&
    !over(r.auctionId) &&
    !over(r.currency) &&
    !over(r.tagId) &&
    !(r.errors?.some((e) => over(e)) ?? false) &&
    !r.bidders.some(bidderOver) &&
    !r.winners.some(winnerOver)
  ) {
    return r;
  }
  const tagId = cutOptional(r.tagId);
  return {
    ...r,
    account: cut(r.account),
    auctionId: cut(r.auctionId),
    currency: cut(r.currency),
    bidders: r.bidders.map((b) => (bidderOver(b) ? { ...b, bidder: cut(b.bidder) } : b)),
    winners: r.winners.map((w) => {
      if (!winnerOver(w)) return w;
      const dealId = cutOptional(w.dealId);
      return { ...w, impId: cut(w.impId), bidder: cut(w.bidder), bidId: cut(w.bidId), ...(dealId !== undefined ? { dealId } : {}) };
    }),
    ...(tagId !== undefined ? { tagId } : {}),
    ...(r.errors !== undefined ? { errors: r.errors.map(cut) } : {}),
  };
};

/**
 * The record with every string it took from a request or a bidder cut to `MAX_RECORD_STRING`
 * characters (the user agent to `MAX_RECORD_USER_AGENT`) and marked with `CUT_MARKER`, so a huge
 * id cannot reach a module (a file, a collector, a log) verbatim. A record with nothing too long
 * is returned as it is: no copy on the hot path.
 */
export const boundedRecord = (r: AnalyticsRecord): AnalyticsRecord => (r.kind === 'event' ? boundedEvent(r) : boundedAuction(r));
