import type { BidderError } from '../bidders/adapter.js';
import { BidderErrorCode } from '../bidders/adapter.js';
import { isObject } from '../core/json-object.js';
import type { BidRequest } from '../openrtb/types.js';
import type { BidderResult } from './bidder-call.js';

/** One entry of `ext.prebid.fledge.auctionconfigs`, as Prebid Server answers it. */
export interface AuctionConfigEntry {
  readonly impid: string;
  readonly bidder: string;
  readonly adapter: string;
  readonly config: unknown;
}

/**
 * The imps of the request that allow an on-device Protected Audience auction: `imp.ext.ae` is 1
 * (Prebid.js's PAAPI module sets it) or `imp.ext.igs.ae` is 1 (the newer place).
 */
const impsAllowingPaapi = (request: BidRequest): Set<string> => {
  const allowed = new Set<string>();
  for (const imp of request.imp) {
    const ext = imp.ext;
    if (!isObject(ext)) continue;
    if (ext.ae === 1 || (isObject(ext.igs) && ext.igs.ae === 1)) allowed.add(imp.id);
  }
  return allowed;
};

/**
 * The Protected Audience configs the bidders answered, for the answer's
 * `ext.prebid.fledge.auctionconfigs`: each names its bidder and the bidder it runs as. A config
 * for an imp that does not allow an on-device auction is not passed on: the page would have no
 * slot to run it in; its bidder gets a warning saying so.
 */
export const collectAuctionConfigs = (
  request: BidRequest,
  results: readonly BidderResult[],
  warn: (bidder: string, warning: BidderError) => void,
): AuctionConfigEntry[] => {
  if (results.every((r) => r.fledgeAuctionConfigs.length === 0)) return [];
  const allowed = impsAllowingPaapi(request);
  const entries: AuctionConfigEntry[] = [];
  for (const r of results) {
    for (const c of r.fledgeAuctionConfigs) {
      if (allowed.has(c.impId)) {
        entries.push({ impid: c.impId, bidder: r.code, adapter: r.baseCode, config: c.config });
      } else {
        warn(r.code, { code: BidderErrorCode.UNKNOWN, message: `Protected Audience config for imp "${c.impId}" dropped: the imp does not allow an on-device auction (imp.ext.ae or imp.ext.igs.ae is not 1)` });
      }
    }
  }
  return entries;
};
