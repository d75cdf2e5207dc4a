import type { BidderError } from '../bidders/adapter.js';
import { BidderErrorCode } from '../bidders/adapter.js';
import { nullProtoRecord } from '../core/own-keys.js';
import type { Bid, BidRequest, BidResponse, Open, SeatBid } from '../openrtb/types.js';
import type { AuctionBid } from './auction-bid.js';
import { answerBidExt } from './bid-ext.js';
import type { BidderResult } from './bidder-call.js';
import type { SplitMessage } from './split.js';
import type { BidCacheIds } from './targeting.js';
import { collectAuctionConfigs } from './paapi.js';

export interface ResponseParts {
  readonly request: BidRequest;
  readonly currency: string;
  readonly results: readonly BidderResult[];
  readonly splitWarnings: readonly SplitMessage[];
  readonly splitErrors: readonly SplitMessage[];
  /** Request-level warnings, shown under `general`. */
  readonly general: readonly BidderError[];
  readonly targeting: ReadonlyMap<AuctionBid, Record<string, string>>;
  readonly cacheIds: ReadonlyMap<AuctionBid, BidCacheIds>;
  readonly cacheUrl: string;
  readonly tmax: number;
  readonly debug: boolean;
}

type Messages = Record<string, { code: number; message: string }[]>;

// Records keyed by bidder code (any string, `constructor` and `__proto__` included) have no prototype.
const add = (into: Messages, key: string, entry: BidderError): void => {
  (into[key] ??= []).push({ code: entry.code, message: entry.message });
};

/**
 * The OpenRTB bid response of an auction, as Prebid Server writes it: a seat per bidder with its
 * valid bids, each bid's `ext.prebid` built here (type, targeting, cache ids and URLs; of the
 * bidder's own `ext.prebid` only `meta`: {@link answerBidExt}) and original price,
 * and `ext` with response times, errors and warnings per bidder, Protected Audience configs
 * (`ext.prebid.fledge.auctionconfigs`) for the imps that allow them, and debug data when asked.
 * The bids go into the response as they are, their `ext` replaced (and `adm` dropped when the
 * caller reads it from the cache): build it once per auction, after targeting and caching.
 */
export const buildBidResponse = (p: ResponseParts): BidResponse => {
  const prebidCache = p.request.ext?.prebid?.cache;
  const stripCreative = prebidCache?.bids?.returnCreative === false || prebidCache?.vastxml?.returnCreative === false;
  const cacheRef = (uuid: string) => ({ url: `${p.cacheUrl}?uuid=${uuid}`, cacheId: uuid });

  const seats = new Map<string, Bid[]>();
  for (const r of p.results) {
    for (const b of r.bids) {
      const ids = p.cacheIds.get(b);
      const cache =
        ids?.cacheId !== undefined || ids?.vastCacheId !== undefined
          ? {
              ...(ids.cacheId !== undefined ? { bids: cacheRef(ids.cacheId) } : {}),
              ...(ids.vastCacheId !== undefined ? { vastXml: cacheRef(ids.vastCacheId) } : {}),
            }
          : undefined;
      const ext = answerBidExt(b, p.targeting.get(b), cache);
      // The exchange's own copy of the bid (made when it was priced), here for its last use: completed
      // in place rather than copied once more. Targeting and the cache have read it already.
      const bid: Bid = b.bid;
      bid.ext = ext;
      // A creative the caller reads from the cache need not travel twice (`returnCreative: false`).
      if (stripCreative && ids !== undefined) delete bid.adm;
      let list = seats.get(b.bidder);
      if (list === undefined) seats.set(b.bidder, (list = []));
      list.push(bid);
    }
  }
  const seatbid: SeatBid[] = [...seats].map(([seat, bid]) => ({ seat, bid }));

  const errors: Messages = nullProtoRecord();
  const warnings: Messages = nullProtoRecord();
  const responsetimemillis = nullProtoRecord<number>();
  for (const m of p.splitErrors) add(errors, m.bidder, { code: BidderErrorCode.BAD_INPUT, message: m.message });
  for (const m of p.splitWarnings) add(warnings, m.bidder, { code: BidderErrorCode.UNKNOWN, message: m.message });
  for (const r of p.results) {
    responsetimemillis[r.code] = r.responseTimeMs;
    for (const e of r.errors) add(errors, r.code, e);
    for (const w of r.warnings) add(warnings, r.code, w);
  }
  for (const g of p.general) add(warnings, 'general', g);
  const auctionconfigs = collectAuctionConfigs(p.request, p.results, (bidder, warning) => add(warnings, bidder, warning));

  const ext: Open = { responsetimemillis, tmaxrequest: p.tmax };
  if (Object.keys(errors).length > 0) ext.errors = errors;
  if (Object.keys(warnings).length > 0) ext.warnings = warnings;
  if (p.debug) {
    const httpcalls = nullProtoRecord<unknown[]>();
    for (const r of p.results) if (r.httpCalls.length > 0) httpcalls[r.code] = r.httpCalls;
    ext.debug = { httpcalls, resolvedrequest: p.request };
  }
  const auctiontimestamp = p.request.ext?.prebid?.auctiontimestamp;
  const prebid: Open = {};
  if (typeof auctiontimestamp === 'number') prebid.auctiontimestamp = auctiontimestamp;
  if (auctionconfigs.length > 0) prebid.fledge = { auctionconfigs };
  if (Object.keys(prebid).length > 0) ext.prebid = prebid;
  return { id: p.request.id, seatbid, cur: p.currency, ext };
};
