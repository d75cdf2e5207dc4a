import { isObject } from '../core/json-object.js';
import { withKey } from '../core/own-keys.js';
import type { BidRequest } from '../openrtb/types.js';
import { EMPTY_UIDS_COOKIE } from '../usersync/uids-cookie.js';
import type { UidsCookie } from '../usersync/uids-cookie.js';

/** Where an auction's buyer ids come from: the request's own, then the `uids` cookie. */
export interface BuyerUids {
  /** `user.ext.prebid.buyeruids`, by bidder code: they win over the cookie. */
  readonly explicit: ReadonlyMap<string, string>;
  readonly cookie: UidsCookie;
}

export const NO_BUYER_UIDS: BuyerUids = Object.freeze({ explicit: new Map<string, string>(), cookie: EMPTY_UIDS_COOKIE });

/**
 * `user.ext.prebid.buyeruids` taken out of the request, as Prebid Server does before any bidder
 * sees it (each bidder gets only its own id, as `user.buyeruid`). Values must be strings: anything
 * else is a `problem` for the 400. The request is not modified; one without buyer ids is returned
 * as it is.
 */
export const takeBuyerUids = (request: BidRequest): { request: BidRequest; explicit: ReadonlyMap<string, string>; problem?: string } => {
  const user = request.user;
  const prebid = isObject(user?.ext) && isObject(user.ext.prebid) ? user.ext.prebid : undefined;
  if (user === undefined || prebid === undefined || !Object.hasOwn(prebid, 'buyeruids')) return { request, explicit: new Map() };
  const given = prebid.buyeruids;
  const explicit = new Map<string, string>();
  if (isObject(given)) {
    for (const [bidder, uid] of Object.entries(given)) {
      if (typeof uid !== 'string') return { request, explicit, problem: `request.user.ext.prebid.buyeruids.${bidder} must be a string` };
      explicit.set(bidder, uid);
    }
  } else if (given !== null) {
    return { request, explicit, problem: 'request.user.ext.prebid.buyeruids must be an object of bidder codes to ids' };
  }
  const { buyeruids: _taken, ...restPrebid } = prebid;
  const { prebid: _prebid, ...restExt } = user.ext!;
  const ext = Object.keys(restPrebid).length > 0 ? { ...restExt, prebid: restPrebid } : restExt;
  const { ext: _ext, ...restUser } = user;
  return { request: { ...request, user: Object.keys(ext).length > 0 ? { ...restUser, ext } : restUser }, explicit };
};

/**
 * The request one bidder receives with its buyer id: the request's explicit id for the bidder's
 * code, else the cookie's id for its cookie family (live or not: expiry only says when to sync
 * again, as in Prebid Server). Without either, the request is returned as it is. Privacy scrubs
 * the id afterwards where the bidder may not have it.
 */
export const withBuyerUid = (request: BidRequest, uids: BuyerUids, bidderCode: string, family: string | undefined): BidRequest => {
  const uid = uids.explicit.get(bidderCode) ?? (family === undefined ? undefined : uids.cookie.uids.get(family)?.uid);
  if (uid === undefined) return request;
  return withKey(request, 'user', withKey(request.user ?? {}, 'buyeruid', uid));
};
