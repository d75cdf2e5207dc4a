import type { AnalyticsRecord, AuctionBidderRecord } from '../analytics/analytics-module.js';
import { BidderErrorCode } from '../bidders/adapter.js';
import type { BidderError } from '../bidders/adapter.js';
import type { Bidder, BidderRegistry } from '../bidders/registry.js';
import type { BidCacheClient } from '../cache/cache-client.js';
import { isAppError } from '../core/app-error.js';
import { ownValue } from '../core/own-keys.js';
import type { Clock } from '../core/clock.js';
import type { Logger } from '../core/logger.js';
import type { BidRequest, BidResponse, Imp, PriceGranularitySetting } from '../openrtb/types.js';
import { convertDownTo25 } from '../openrtb/convert-down.js';
import type { AuctionBid } from './auction-bid.js';
import type { AuctionMetrics } from './auction-metrics.js';
import { bidCachingOf, cacheBids } from './bid-cache.js';
import type { CacheTtlDefaults } from './bid-cache.js';
import type { BidderHttpClient } from './bidder-http.js';
import { callBidder } from './bidder-call.js';
import type { BidderResult } from './bidder-call.js';
import { deadlineSignal } from './deadline-signal.js';
import { createCurrencyConverter } from './currency.js';
import type { Rates } from './currency.js';
import { priceBucket, resolvePriceGranularity } from './price-granularity.js';
import type { PriceGranularity } from './price-granularity.js';
import { rankBids } from './ranking.js';
import { splitByBidder } from './split.js';
import { bidsWithTargeting, bidTargeting, targetingKeys } from './targeting.js';
import type { BidCacheIds, CacheLocation, TargetingOptions } from './targeting.js';
import { buildBidResponse } from './response.js';
import { NO_BUYER_UIDS, withBuyerUid } from './buyer-uids.js';
import type { BuyerUids } from './buyer-uids.js';
import type { BidderShare, SplitMessage } from './split.js';
import type { PrivacyEnforcer } from '../privacy/enforcer.js';
import type { AccountPrivacySettings, Channel } from '../privacy/settings.js';

export interface ExchangeOptions {
  readonly registry: BidderRegistry;
  readonly http: BidderHttpClient;
  readonly cache: BidCacheClient;
  readonly clock: Clock;
  readonly metrics: AuctionMetrics;
  readonly logger: Logger;
  /** The server's currency rates (`auction.currency`), the last good copy, codes upper-case; `undefined` when none. */
  readonly serverRates: () => Rates | undefined;
  /** Hands the auction's record to the analytics modules `allow` accepts by name; must not throw. */
  readonly report: (record: AnalyticsRecord, allow: (module: string) => boolean) => void;
  /** Decides, per bidder, what each may receive (GDPR, US privacy, COPPA, LMT, activity controls). */
  readonly privacy: PrivacyEnforcer;
  /** The `uids` cookie family a bidder's ids are kept under (by its adapter's code); `undefined`: none. */
  readonly cookieFamilyOf: (baseCode: string) => string | undefined;
  readonly limits: {
    readonly maxResponseBytes: number;
    /** Kept back from the bidders' time when bids are to be cached. */
    readonly bidCacheMarginMs: number;
    /** Bidders called per auction at most; the rest are named in a warning and not called. */
    readonly maxBiddersPerRequest: number;
    /** Bids read from one bidder per auction at most (all its calls); the rest are dropped with an error. */
    readonly maxBidsPerBidderResponse: number;
  };
}

/** The account settings an auction uses. */
export interface AuctionAccount {
  readonly id: string;
  readonly priceGranularity: PriceGranularitySetting;
  readonly cacheTtl: CacheTtlDefaults;
  readonly debugAllowed: boolean;
  /** Replaces `hb` in targeting keys when the request sets no prefix. */
  readonly targetingPrefix: string;
  /** The account's `privacy` overrides of the server's settings. */
  readonly privacy?: AccountPrivacySettings;
}

/** One auction to hold: a validated request (stored data merged), its account and its deadline. */
export interface AuctionInput {
  readonly request: BidRequest;
  readonly account: AuctionAccount;
  /** Epoch ms by which the auction must answer: its start plus the effective `tmax`. */
  readonly deadline: number;
  readonly tmax: number;
  readonly entryPoint: 'auction' | 'amp';
  readonly globalPrivacyControl: boolean;
  /** The buyer ids each bidder may receive as `user.buyeruid`; none when absent. */
  readonly buyerUids?: BuyerUids;
  /** Request-level warnings found before the auction (stored data, AMP query), under `general`. */
  readonly warnings?: readonly string[];
  readonly startedAt: number;
  /** AMP: the stored request's id, for the record. */
  readonly tagId?: string;
}

export interface AuctionOutcome {
  readonly response: BidResponse;
  /** What each bidder brought, in the order the response lists their seats. */
  readonly bidders: readonly BidderResult[];
  /** The targeting key-values of each bid that carries some (AMP answers these). */
  readonly targeting: ReadonlyMap<AuctionBid, Readonly<Record<string, string>>>;
}

/** Targeting keys are cut to this many characters, as Prebid Server does by default. */
const MAX_TARGETING_KEY_LENGTH = 20;

/**
 * The exchange. `holdAuction` never rejects for a bidder's fault: bidders that fail, time out or
 * answer garbage are entries of `ext.errors`; a cache that fails is a warning and the bids go out
 * without cache ids. It answers by the input's deadline with what came by then.
 */
export interface Exchange {
  holdAuction(input: AuctionInput): Promise<AuctionOutcome>;
}

export const createExchange = (opts: ExchangeOptions): Exchange => ({
  async holdAuction(input) {
    const { request, account } = input;
    const prebid = request.ext?.prebid;
    const currency = (request.cur?.[0] ?? 'USD').toUpperCase();
    const debug = (request.test === 1 || prebid?.debug === true) && account.debugAllowed;
    const general: BidderError[] = (input.warnings ?? []).map((message) => ({ code: BidderErrorCode.UNKNOWN, message }));

    const split = splitByBidder(request, opts.registry, opts.limits.maxBiddersPerRequest);
    const caching = bidCachingOf(request);
    const cachingAsked = caching.bids || caching.vastXml;
    const bidderDeadline = input.deadline - (cachingAsked ? opts.limits.bidCacheMarginMs : 0);
    const serverRates = opts.serverRates();
    const converter = createCurrencyConverter({
      ...(prebid?.currency?.rates !== undefined ? { requestRates: prebid.currency.rates } : {}),
      ...(serverRates !== undefined ? { serverRates } : {}),
      ...(prebid?.currency?.usepbsrates !== undefined ? { usePbsRates: prebid.currency.usepbsrates } : {}),
    });
    const adjustments = prebid?.bidadjustmentfactors;

    // Privacy: signals read once, then each bidder blocked, or its request scrubbed, before its adapter sees it.
    const begun = opts.privacy.begin(request, { channel: channelOf(input), gpc: input.globalPrivacyControl, account: account.privacy, maxWaitMs: bidderDeadline - opts.clock.now() });
    const privacy = begun instanceof Promise ? await begun : begun;
    for (const message of privacy.warnings) general.push({ code: BidderErrorCode.UNKNOWN, message });
    const buyerUids = input.buyerUids ?? NO_BUYER_UIDS;
    const blocked: SplitMessage[] = [];
    const shares: BidderShare[] = [];
    for (const share of split.shares) {
      const decision = privacy.bidder({ code: share.bidder.code, ...(share.bidder.gvlVendorId !== undefined ? { gvlVendorId: share.bidder.gvlVendorId } : {}) });
      if (!decision.allowed) blocked.push({ bidder: share.bidder.code, message: decision.reason });
      else {
        const scrubbed = decision.scrub(withBuyerUid(share.request, buyerUids, share.bidder.code, opts.cookieFamilyOf(share.bidder.baseCode)));
        const sent = readsOpenRtb26(share.bidder) ? { ok: true as const, request: scrubbed } : convertDownTo25(scrubbed);
        if (sent.ok) shares.push({ bidder: share.bidder, request: sent.request });
        else general.push({ code: BidderErrorCode.BAD_INPUT, message: `${share.bidder.code} not called: ${sent.error}` });
      }
    }

    const bidderTimer = deadlineSignal(bidderDeadline - opts.clock.now());
    const results = await Promise.all(
      shares.map((share) =>
        callBidder(share, {
          http: opts.http,
          clock: opts.clock,
          deadline: bidderDeadline,
          signal: bidderTimer.signal,
          maxResponseBytes: opts.limits.maxResponseBytes,
          maxBids: opts.limits.maxBidsPerBidderResponse,
          currency,
          convertCurrency: (amount, from, to) => converter.convert(amount, from, to),
          adjustment: adjustmentOf(adjustments, share.bidder.code),
          entryPoint: input.entryPoint,
          globalPrivacyControl: input.globalPrivacyControl,
          debug,
        }),
      ),
    );
    bidderTimer.clear();
    for (const r of results) opts.metrics.bidder(r.baseCode, r.outcome, r.bids.length, r.responseTimeMs / 1000);

    const impsById = new Map<string, Imp>(request.imp.map((imp) => [imp.id, imp]));
    const rankings = rankBids(
      request.imp.map((imp) => imp.id),
      results.flatMap((r) => r.bids),
      prebid?.targeting?.preferdeals === true,
    );
    const targetingOptions = prebid?.targeting === undefined ? undefined : targetingOptionsOf(request, input, account);
    const toCache = targetingOptions !== undefined ? bidsWithTargeting(rankings, targetingOptions) : rankings.flatMap((r) => r.topByBidder);

    let cacheIds = new Map<AuctionBid, BidCacheIds>();
    if (cachingAsked && toCache.length > 0) {
      const puts = toCache.length * (caching.bids ? 1 : 0) + toCache.filter((b) => b.type === 'video').length * (caching.vastXml ? 1 : 0);
      try {
        // The bidders' deadline, moved to the auction's: every bidder call has settled and let go of it.
        const deadline = bidderTimer.rearm(Math.max(1, input.deadline - opts.clock.now()));
        try {
          cacheIds = await cacheBids(toCache, caching, { request, impsById, ttl: account.cacheTtl }, opts.cache, deadline.signal);
        } finally {
          deadline.clear();
        }
        opts.metrics.cacheWrite('ok', puts);
      } catch (err) {
        const timedOut = isAppError(err) && err.code === 'BACKEND_TIMEOUT';
        opts.metrics.cacheWrite(timedOut ? 'timeout' : 'error', puts);
        // The cache's own words may name its URL or quote its answer: logged below, not answered.
        general.push({ code: BidderErrorCode.UNKNOWN, message: `bids were not cached: ${timedOut ? 'the cache did not answer in time' : 'the cache failed'}` });
        if (!timedOut) opts.logger.warn({ err }, 'caching auction bids failed');
      }
    }

    const targeting = new Map<AuctionBid, Record<string, string>>();
    if (targetingOptions !== undefined) {
      const location = cacheLocation(opts.cache.url);
      const granularity = granularities(request, account, general);
      const keys = targetingKeys(targetingOptions);
      for (const r of rankings) {
        for (const b of r.topByBidder) {
          const bucket = priceBucket(b.bid.price, granularity(b.type));
          const t = bidTargeting(b, b === r.winner, bucket, cacheIds.get(b) ?? {}, location, targetingOptions, keys);
          if (t !== undefined) targeting.set(b, t);
        }
      }
    }

    const response = buildBidResponse({
      request,
      currency,
      results,
      splitWarnings: blocked.length > 0 ? [...split.warnings, ...blocked] : split.warnings,
      splitErrors: split.errors,
      general,
      targeting,
      cacheIds,
      cacheUrl: opts.cache.url,
      tmax: input.tmax,
      debug,
    });
    const now = opts.clock.now();
    const anyBid = rankings.length > 0;
    opts.metrics.auction(input.entryPoint, anyBid ? 'bids' : 'no-bids', (now - input.startedAt) / 1000);
    opts.report(
      {
        kind: input.entryPoint,
        account: account.id,
        auctionId: request.id,
        status: 200,
        currency,
        bidders: results.map((r): AuctionBidderRecord => ({ bidder: r.code, outcome: r.outcome, bids: r.bids.length, responseTimeMs: r.responseTimeMs })),
        winners: rankings.map((r) => ({ impId: r.impId, bidder: r.winner.bidder, bidId: r.winner.bid.id, price: r.winner.bid.price, ...(r.winner.bid.dealid ? { dealId: r.winner.bid.dealid } : {}) })),
        ...(input.tagId !== undefined ? { tagId: input.tagId } : {}),
        receivedAt: input.startedAt,
        durationMs: now - input.startedAt,
      },
      (module) => privacy.reportAnalytics(module),
    );
    return { response, bidders: results, targeting };
  },
});

/** `ext.prebid.bidadjustmentfactors[<code>]` when it is a number (own keys only: a code may be `constructor`), else 1. */
const adjustmentOf = (factors: Readonly<Record<string, number>> | undefined, code: string): number => {
  const f: unknown = ownValue(factors, code);
  return typeof f === 'number' ? f : 1;
};

/**
 * The bidder is sent OpenRTB 2.6 as is. Prebid Server looks the version up by the code the request
 * names, in its static bidder info: a request's own alias (`ext.prebid.aliases`) is not there, so
 * it is sent 2.5 whatever its adapter reads.
 */
const readsOpenRtb26 = (bidder: Bidder): boolean => bidder.module.info.openrtbVersion === '2.6' && bidder.code === bidder.baseCode;

/** The channel of Prebid Server's per-channel privacy switches. */
const channelOf = (input: AuctionInput): Channel =>
  input.entryPoint === 'amp' ? 'amp' : input.request.app !== undefined ? 'app' : input.request.dooh !== undefined ? 'dooh' : 'web';

const targetingOptionsOf = (request: BidRequest, input: AuctionInput, account: AuctionAccount): TargetingOptions => {
  const t = request.ext?.prebid?.targeting ?? {};
  const env = input.entryPoint === 'amp' ? 'amp' : request.app !== undefined ? 'mobile-app' : undefined;
  const prefix = typeof t.prefix === 'string' && t.prefix !== '' ? t.prefix : account.targetingPrefix || 'hb';
  return {
    // Prebid Server's defaults when the request names targeting but not these switches.
    includeWinners: t.includewinners ?? true,
    includeBidderKeys: t.includebidderkeys ?? true,
    includeFormat: t.includeformat === true,
    alwaysIncludeDeals: t.alwaysincludedeals === true,
    prefix,
    ...(env !== undefined ? { env } : {}),
    maxKeyLength: MAX_TARGETING_KEY_LENGTH,
  };
};

/** `hb_cache_host` and `hb_cache_path` from the cache's public URL. */
const cacheLocation = (url: string): CacheLocation | undefined => {
  try {
    const u = new URL(url);
    return { host: u.host, path: u.pathname };
  } catch {
    return undefined;
  }
};

/**
 * The price granularity for each media type: `mediatypepricegranularity.<type>`, else
 * `pricegranularity`, else the account's. The request's settings were checked with the request
 * (an invalid one is a 400); the account's schema does not see every rule (ranges in order), and
 * a publisher cannot fix an account per request, so an invalid one there is a warning and
 * `medium`.
 */
const granularities = (request: BidRequest, account: AuctionAccount, general: BidderError[]): ((type: string) => PriceGranularity) => {
  const t = request.ext?.prebid?.targeting;
  const resolve = (setting: PriceGranularitySetting | undefined, where: string): PriceGranularity | undefined => {
    if (setting === undefined) return undefined;
    const r = resolvePriceGranularity(setting, where);
    if (r.error !== undefined) general.push({ code: BidderErrorCode.BAD_INPUT, message: r.error });
    return r.granularity;
  };
  const base = resolve(t?.pricegranularity, 'ext.prebid.targeting.pricegranularity') ?? resolve(account.priceGranularity, `account ${account.id} price_granularity`) ?? resolvePriceGranularity(undefined).granularity!;
  const byType = new Map<string, PriceGranularity>();
  for (const type of ['banner', 'video', 'native'] as const) {
    const g = resolve(t?.mediatypepricegranularity?.[type], `ext.prebid.targeting.mediatypepricegranularity.${type}`);
    if (g !== undefined) byType.set(type, g);
  }
  return (type) => byType.get(type) ?? base;
};
