import { LATENCY_BUCKETS_SECONDS } from '../metrics/metrics.js';
import type { Metrics } from '../metrics/metrics.js';

export type BidderOutcome = 'bid' | 'no-bid' | 'timeout' | 'error' | 'bad-input';
export type AuctionResult = 'bids' | 'no-bids' | 'rejected' | 'error';

/** The exchange's instruments. Labels are bounded: bidders are named by their configured code. */
export interface AuctionMetrics {
  auction(endpoint: 'auction' | 'amp', result: AuctionResult, seconds: number): void;
  bidder(bidder: string, outcome: BidderOutcome, bids: number, seconds: number): void;
  cacheWrite(result: 'ok' | 'error' | 'timeout', puts: number): void;
  /** An auction's `uids` cookie: absent, sent without ids, or with some. */
  uidsCookie(state: 'absent' | 'without-ids' | 'with-ids'): void;
}

export const createAuctionMetrics = (metrics: Metrics): AuctionMetrics => {
  const auctions = metrics.counter({ name: 'openbid_auctions_total', help: 'Auctions by endpoint and result.', labelNames: ['endpoint', 'result'] });
  const auctionLatency = metrics.histogram({
    name: 'openbid_auction_duration_seconds',
    help: 'Time from request to answer of auctions, by endpoint.',
    labelNames: ['endpoint'],
    buckets: LATENCY_BUCKETS_SECONDS,
  });
  const requests = metrics.counter({ name: 'openbid_bidder_requests_total', help: 'Bidder calls by bidder and outcome (bid, no-bid, timeout, error, bad-input).', labelNames: ['bidder', 'outcome'] });
  const bids = metrics.counter({ name: 'openbid_bidder_bids_total', help: 'Valid bids received, by bidder.', labelNames: ['bidder'] });
  const bidderLatency = metrics.histogram({ name: 'openbid_bidder_duration_seconds', help: 'Time for a bidder to answer, by bidder.', labelNames: ['bidder'], buckets: LATENCY_BUCKETS_SECONDS });
  const uidsCookies = metrics.counter({ name: 'openbid_auction_uids_cookies_total', help: "Auctions by their uids cookie: absent, without ids, with ids.", labelNames: ['state'] });
  const cacheWrites = metrics.counter({ name: 'openbid_auction_cache_puts_total', help: 'Values auctions cached, by result of their batch.', labelNames: ['result'] });
  return {
    auction: (endpoint, result, seconds) => {
      auctions.inc({ endpoint, result });
      auctionLatency.observe({ endpoint }, seconds);
    },
    bidder: (bidder, outcome, n, seconds) => {
      requests.inc({ bidder, outcome });
      if (n > 0) bids.inc({ bidder }, n);
      bidderLatency.observe({ bidder }, seconds);
    },
    cacheWrite: (result, puts) => cacheWrites.inc({ result }, puts),
    uidsCookie: (state) => uidsCookies.inc({ state }),
  };
};
