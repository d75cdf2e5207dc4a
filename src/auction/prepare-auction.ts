import type { AuctionRecord } from '../analytics/analytics-module.js';
import { AppError, ErrorCode, isAppError } from '../core/app-error.js';
import { jsonProblem, parseBoundedJson } from '../core/bounded-json.js';
import type { Clock } from '../core/clock.js';
import type { IdGenerator } from '../core/ids.js';
import { mapMaybe } from '../core/maybe-promise.js';
import type { MaybePromise } from '../core/maybe-promise.js';
import { isObject } from '../core/json-object.js';
import { withKey, withKeys } from '../core/own-keys.js';
import { validateBidRequest } from '../openrtb/validate-request.js';
import type { BidRequest } from '../openrtb/types.js';
import type { Account } from '../stored/account.js';
import { resolveStoredData } from '../stored/merge.js';
import type { StoredRequestFetcher } from '../stored/stored-request-fetcher.js';
import { cookieValue, readUidsCookie } from '../usersync/request-cookie.js';
import type { OptOutCookie } from '../usersync/request-cookie.js';
import { UIDS_COOKIE_NAME } from '../usersync/uids-cookie.js';
import { createAuctionAccountView } from './auction-account.js';
import { takeBuyerUids } from './buyer-uids.js';
import type { AuctionMetrics } from './auction-metrics.js';
import type { AuctionInput, AuctionOutcome, Exchange } from './exchange.js';

/** What the HTTP layer knows of the caller that OpenRTB may lack. */
export interface CallerInfo {
  readonly ip?: string;
  readonly userAgent?: string;
  /** `Sec-GPC: 1`. */
  readonly globalPrivacyControl: boolean;
  /** The request's `Cookie` header: the `uids` cookie in it holds the bidders' synced ids. */
  readonly cookieHeader?: string;
}

/** The limits every auction request meets before it runs (`auction.*`). */
export interface AuctionRequestLimits {
  /** `tmax` of a request that sets none. */
  readonly defaultTimeoutMs: number;
  /** Every `tmax` is capped to this. */
  readonly maxTimeoutMs: number;
  /** More imps than this (after stored data is merged) is a 400. */
  readonly maxImpsPerRequest: number;
}

export interface AuctionPreparationOptions {
  readonly exchange: Exchange;
  readonly clock: Clock;
  /** Fresh ids for stored requests whose `id` is `{{UUID}}`. */
  readonly ids: IdGenerator;
  /** Counts the auctions refused before they ran (the exchange counts those it holds). */
  readonly metrics: AuctionMetrics;
  readonly storedRequests: StoredRequestFetcher;
  /** The account of a request; rejects with `UNAUTHORIZED` for an unknown one when accounts are required. */
  readonly resolveAccount: (id: string) => MaybePromise<Account>;
  /** Hands a refused auction's record to the analytics modules; must not throw. */
  readonly report: (record: AuctionRecord) => void;
  /** The HTTP status a refusal answers (the record carries it). */
  readonly statusOf: (err: unknown) => number;
  readonly limits: AuctionRequestLimits;
  /** The host's opt-out cookie (`host_cookie.optout_cookie`): a user carrying it has no ids. */
  readonly optOutCookie: OptOutCookie;
}

/** One auction as an entry point hands it over. */
export interface AuctionCall {
  readonly entryPoint: 'auction' | 'amp';
  readonly caller: CallerInfo;
  /** Epoch ms when the request arrived: `tmax` counts from here. */
  readonly startedAt: number;
  /** AMP: the stored request's id, for the record. */
  readonly tagId?: string;
  /** A bound of `tmax` besides the server's (AMP: its default timeout and the page's `timeout`). */
  readonly tmaxLimitMs?: number;
}

/** What an entry point's loader made of its input: the request, and warnings found on the way. */
export interface LoadedRequest {
  readonly request: Record<string, unknown>;
  readonly warnings?: readonly string[];
  /** The loader merged the stored data itself (AMP needs the stored imp before it applies its query). */
  readonly storedMerged?: boolean;
}

/**
 * The one way into an auction, for `/openrtb2/auction` and `/openrtb2/amp` alike. `hold` runs the
 * entry point's loader, then the same steps for both: stored data merged, the request validated
 * and held to the limits, the caller's device fields filled in, the account resolved, the
 * effective `tmax` written into the request every bidder receives; then the exchange.
 *
 * Errors: a refused request rejects with the `AppError` that says why (`BAD_REQUEST` naming
 * every problem, `UNAUTHORIZED`, a stored-data backend's failure); it is counted as `rejected`
 * and its record, with its status, reaches the analytics modules. Anything else is counted as an
 * `error`, reported with its status, and rethrown.
 */
export interface AuctionPreparation {
  hold(call: AuctionCall, load: () => Promise<LoadedRequest>): Promise<AuctionOutcome>;
  /** A request body as a JSON object; `BAD_REQUEST` for an empty body, bad JSON or nesting past the limit. */
  parseBody(text: string): Record<string, unknown>;
  /**
   * Stored requests and imps merged into a request (`ext.prebid.storedrequest.id`); a missing or
   * broken stored entry is a `BAD_REQUEST` naming it, as Prebid Server answers.
   */
  mergeStored(request: Record<string, unknown>): Promise<Record<string, unknown>>;
}

const bad = (message: string): AppError => new AppError(ErrorCode.BAD_REQUEST, message);

/** The effective `tmax`: the request's (the default when it sets none), capped by the server's maximum. */
export const effectiveTmax = (requested: number | undefined, defaultMs: number, maxMs: number): number =>
  Math.min(requested !== undefined && requested > 0 ? requested : defaultMs, maxMs);

/** The publisher's account id of a request: `site.publisher.id`, `app.publisher.id` or `dooh.publisher.id`. */
export const accountIdOf = (request: BidRequest | Record<string, unknown>): string => {
  for (const ctx of [request.site, request.app, request.dooh]) {
    const id = (ctx as { publisher?: { id?: unknown } } | undefined)?.publisher?.id;
    if (typeof id === 'string' && id !== '') return id;
  }
  return '';
};

/** Fills `device.ua` and `device.ip` from the HTTP request when the request lacks them, as Prebid Server does. */
const withCallerDevice = (request: BidRequest, caller: CallerInfo): BidRequest => {
  const device = request.device ?? {};
  const ua = device.ua === undefined && caller.userAgent !== undefined ? { ua: caller.userAgent } : undefined;
  const hasIp = device.ip !== undefined || device.ipv6 !== undefined;
  const ip = !hasIp && caller.ip !== undefined ? (caller.ip.includes(':') ? { ipv6: caller.ip } : { ip: caller.ip }) : undefined;
  if (ua === undefined && ip === undefined) return request;
  return withKey(request, 'device', withKeys(device, { ...ua, ...ip }));
};

export const createAuctionPreparation = (opts: AuctionPreparationOptions): AuctionPreparation => {
  const { limits } = opts;
  const accountView = createAuctionAccountView();

  // Checked before stored data is fetched (a request's own imps) and again after (a stored
  // request's): every step after this one is linear in the imps, and each imp can name bidders.
  const checkImpCount = (request: Record<string, unknown>): void => {
    if (Array.isArray(request.imp) && request.imp.length > limits.maxImpsPerRequest) {
      throw bad(`Invalid request format: request.imp has ${request.imp.length} elements; this server accepts at most ${limits.maxImpsPerRequest} per request`);
    }
  };

  const mergeStored = async (request: Record<string, unknown>): Promise<Record<string, unknown>> => {
    const resolved = await resolveStoredData(request, opts.storedRequests, { newId: () => opts.ids.uuid() });
    if (resolved.errors.length > 0) throw bad(resolved.errors.join('\n'));
    return resolved.request;
  };

  const prepare = async (merged: Record<string, unknown>, call: AuctionCall, warnings: readonly string[]): Promise<AuctionInput> => {
    checkImpCount(merged);
    const problems = validateBidRequest(merged);
    const taken = takeBuyerUids(merged as unknown as BidRequest);
    if (taken.problem !== undefined) problems.push(taken.problem);
    if (problems.length > 0) throw bad(`Invalid request format: ${problems.join('\n')}`);
    const valid = withCallerDevice(taken.request, call.caller);
    const cookie = readUidsCookie(call.caller.cookieHeader, opts.optOutCookie);
    opts.metrics.uidsCookie(cookie.uids.size > 0 ? 'with-ids' : cookie.optOut || cookieValue(call.caller.cookieHeader, UIDS_COOKIE_NAME) !== undefined ? 'without-ids' : 'absent');
    const account = await mapMaybe(opts.resolveAccount(accountIdOf(valid)), accountView);
    const tmax = Math.min(effectiveTmax(valid.tmax, limits.defaultTimeoutMs, limits.maxTimeoutMs), call.tmaxLimitMs ?? Infinity);
    return {
      // Bidders see the budget the auction really has, not the one the page asked for.
      request: valid.tmax === tmax ? valid : withKey(valid, 'tmax', tmax),
      account,
      tmax,
      deadline: call.startedAt + tmax,
      startedAt: call.startedAt,
      entryPoint: call.entryPoint,
      globalPrivacyControl: call.caller.globalPrivacyControl,
      buyerUids: { explicit: taken.explicit, cookie },
      warnings,
      ...(call.tagId !== undefined ? { tagId: call.tagId } : {}),
    };
  };

  const refused = (call: AuctionCall, err: unknown, request: Record<string, unknown> | undefined): void => {
    const durationMs = opts.clock.now() - call.startedAt;
    const rejected = isAppError(err) && err.code !== ErrorCode.INTERNAL;
    opts.metrics.auction(call.entryPoint, rejected ? 'rejected' : 'error', durationMs / 1000);
    const cur = Array.isArray(request?.cur) && typeof request.cur[0] === 'string' ? request.cur[0].toUpperCase() : 'USD';
    opts.report({
      kind: call.entryPoint,
      account: request === undefined ? '' : accountIdOf(request),
      auctionId: typeof request?.id === 'string' ? request.id : '',
      status: opts.statusOf(err),
      currency: cur,
      bidders: [],
      winners: [],
      ...(call.tagId !== undefined ? { tagId: call.tagId } : {}),
      errors: [rejected ? err.message : 'Critical error.'],
      receivedAt: call.startedAt,
      durationMs,
    });
  };

  return {
    parseBody(text) {
      if (text.trim() === '') throw bad('Invalid request format: request body is empty');
      let parsed: unknown;
      try {
        parsed = parseBoundedJson(text);
      } catch (err) {
        throw bad(`Invalid request format: ${jsonProblem(err)}`);
      }
      if (!isObject(parsed)) throw bad('Invalid request format: request must be a JSON object');
      return parsed;
    },
    mergeStored,
    async hold(call, load) {
      let seen: Record<string, unknown> | undefined;
      let input: AuctionInput;
      try {
        const loaded = await load();
        seen = loaded.request;
        checkImpCount(seen);
        const merged = loaded.storedMerged === true ? seen : await mergeStored(seen);
        seen = merged;
        input = await prepare(merged, call, loaded.warnings ?? []);
      } catch (err) {
        refused(call, err, seen);
        throw err;
      }
      try {
        return await opts.exchange.holdAuction(input);
      } catch (err) {
        // The exchange never rejects for a bidder's or the cache's fault: this is a bug.
        refused(call, err, input.request);
        throw err;
      }
    },
  };
};
