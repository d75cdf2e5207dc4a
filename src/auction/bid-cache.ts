import type { BidCacheClient } from '../cache/cache-client.js';
import type { CachePutInput } from '../cache/put-request.js';
import type { BidRequest, Imp } from '../openrtb/types.js';
import type { AuctionBid } from './auction-bid.js';
import type { BidCacheIds } from './targeting.js';
import type { CancelSignal } from '../core/cancel-signal.js';

/** Cache TTLs by media type when neither the bid nor the imp sets `exp` (the account's). */
export interface CacheTtlDefaults {
  readonly bannerSeconds: number;
  readonly videoSeconds: number;
}

export interface BidCachingRequest {
  /** `ext.prebid.cache.bids`: cache each bid as JSON (`hb_cache_id`). */
  readonly bids: boolean;
  /** `ext.prebid.cache.vastxml`: cache each video bid's VAST (`hb_uuid`). */
  readonly vastXml: boolean;
}

/** What the request asks to cache, from `ext.prebid.cache`. */
export const bidCachingOf = (request: BidRequest): BidCachingRequest => {
  const cache = request.ext?.prebid?.cache;
  return { bids: typeof cache?.bids === 'object' && cache.bids !== null, vastXml: typeof cache?.vastxml === 'object' && cache.vastxml !== null };
};

/**
 * A VAST document for a video bid: its markup when it has some, else a wrapper that points the
 * player at the bid's `nurl` (as Prebid Server does for bidders that answer video with a URL).
 */
export const vastOf = (b: AuctionBid): string | undefined => {
  const adm = b.bid.adm;
  if (typeof adm === 'string' && adm.trim() !== '') return adm;
  const nurl = b.bid.nurl;
  if (typeof nurl !== 'string' || nurl === '') return undefined;
  return `<VAST version="3.0"><Ad><Wrapper><AdSystem>prebid.org wrapper</AdSystem><VASTAdTagURI><![CDATA[${nurl}]]></VASTAdTagURI><Impression></Impression><Creatives></Creatives></Wrapper></Ad></VAST>`;
};

const ttlOf = (b: AuctionBid, imp: Imp | undefined, requested: unknown, defaults: CacheTtlDefaults): number => {
  if (isTtl(b.bid.exp)) return b.bid.exp;
  if (isTtl(imp?.exp)) return imp.exp;
  if (isTtl(requested)) return requested;
  return b.type === 'video' ? defaults.videoSeconds : defaults.bannerSeconds;
};

const isTtl = (exp: unknown): exp is number => typeof exp === 'number' && Number.isInteger(exp) && exp > 0;

/**
 * Caches the bids in one batch: each bid's JSON when `bids` is asked, each video bid's VAST when
 * `vastXml` is. Resolves the ids per bid (in the order given); a bid missing from the map was not
 * cached. Rejects with the cache's `AppError` when the batch fails: the caller reports it as a
 * warning and answers without cache ids.
 */
export const cacheBids = async (
  bids: readonly AuctionBid[],
  what: BidCachingRequest,
  context: { readonly request: BidRequest; readonly impsById: ReadonlyMap<string, Imp>; readonly ttl: CacheTtlDefaults },
  client: BidCacheClient,
  signal: CancelSignal,
): Promise<Map<AuctionBid, BidCacheIds>> => {
  const puts: CachePutInput[] = [];
  const slots: { bid: AuctionBid; kind: 'cacheId' | 'vastCacheId' }[] = [];
  const requested = context.request.ext?.prebid?.cache;
  for (const b of bids) {
    const imp = context.impsById.get(b.bid.impid);
    if (what.bids) {
      puts.push({ type: 'json', value: JSON.stringify(b.bid), ttlseconds: ttlOf(b, imp, requested?.bids?.ttlseconds, context.ttl) });
      slots.push({ bid: b, kind: 'cacheId' });
    }
    const vast = what.vastXml && b.type === 'video' ? vastOf(b) : undefined;
    if (vast !== undefined) {
      puts.push({ type: 'xml', value: vast, ttlseconds: ttlOf(b, imp, requested?.vastxml?.ttlseconds, context.ttl) });
      slots.push({ bid: b, kind: 'vastCacheId' });
    }
  }
  const ids = new Map<AuctionBid, { cacheId?: string; vastCacheId?: string }>();
  if (puts.length === 0) return ids;
  const uuids = await client.putBatch(puts, signal);
  slots.forEach(({ bid, kind }, i) => {
    const uuid = uuids[i];
    if (uuid === undefined || uuid === '') return;
    // Filled in place rather than spread with a computed key: this runs once per bid.
    let held = ids.get(bid);
    if (held === undefined) ids.set(bid, (held = {}));
    held[kind] = uuid;
  });
  return ids;
};
