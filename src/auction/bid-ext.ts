import { bidMetaProblem, knownBidMeta } from '../bidders/bid-meta.js';
import { isObject } from '../core/json-object.js';
import { copyToExtend, setOwn } from '../core/own-keys.js';
import type { Open } from '../openrtb/types.js';
import type { AuctionBid } from './auction-bid.js';

/**
 * Why a bid's `ext` cannot go into the auction's answer, or `undefined` when it can. As Prebid
 * Server's exchange: an `ext` that is not a JSON object, or an `ext.prebid.meta` that does not
 * read as Prebid's bid meta (`advertiserDomains` not a list of strings...), makes the bid
 * unusable. Absent and `null` are fine; so is an `ext.prebid` that is not an object (it is
 * replaced).
 */
export const bidExtProblem = (ext: unknown): string | undefined => {
  if (ext === undefined || ext === null) return undefined;
  if (!isObject(ext)) return 'ext is not a JSON object';
  const prebid = ext.prebid;
  if (!isObject(prebid)) return undefined;
  const problem = bidMetaProblem(prebid.meta);
  return problem === undefined ? undefined : `ext.prebid.meta${problem.startsWith('is ') ? ' ' : '.'}${problem}`;
};

/**
 * A bid's `ext` as the auction's answer carries it, built as Prebid Server's exchange builds it:
 * the bidder's members outside `prebid` as sent, `origbidcpm` and `origbidcur`, and a `prebid` of
 * the exchange's own: `type`, `targeting` and `cache` as computed here, `video` and `dealpriority`
 * as the adapter read them, and of the bidder's `ext.prebid` only `meta` (its known members).
 * Anything else a bidder writes in `ext.prebid` (`targeting`, `cache`, `events`, `bidid`,
 * `passthrough`...) is dropped: a bidder never sets the keys the ad server reads. `targeting` and
 * `cache` are the bid's own when it has some. `b.bid.ext` must have passed {@link bidExtProblem};
 * it is not changed.
 */
export const answerBidExt = (b: AuctionBid, targeting: Readonly<Record<string, string>> | undefined, cache: Open | undefined): Open => {
  const bidderExt = b.bid.ext;
  const ext: Open = bidderExt === undefined || bidderExt === null ? {} : withoutPrebid(bidderExt);
  const prebid: Open = { type: b.type };
  if (targeting !== undefined) prebid.targeting = targeting;
  if (cache !== undefined) prebid.cache = cache;
  const meta = isObject(bidderExt?.prebid) ? bidderExt.prebid.meta : undefined;
  if (isObject(meta)) prebid.meta = knownBidMeta(meta);
  if (b.video !== undefined) prebid.video = { duration: b.video.duration ?? 0, primary_category: b.video.primaryCategory ?? '' };
  if (b.dealPriority !== undefined && b.dealPriority !== 0) prebid.dealpriority = b.dealPriority;
  ext.prebid = prebid;
  ext.origbidcpm = b.originalPrice;
  if (b.originalCurrency !== '') ext.origbidcur = b.originalCurrency;
  return ext;
};

/** A copy of `ext` to add keys to, without its `prebid` (copied key by key only when it has one, and never by `delete`, which makes a slow object). */
const withoutPrebid = (ext: Open): Open => {
  if (!Object.hasOwn(ext, 'prebid')) return copyToExtend(ext);
  const out: Open = {};
  for (const key of Object.keys(ext)) if (key !== 'prebid') setOwn(out, key, ext[key]);
  return out;
};
