import { AppError, ErrorCode, isAppError } from '../core/app-error.js';
import type { Clock } from '../core/clock.js';
import type { SyncPrivacyChecker } from '../privacy/sync-permissions.js';
import type { AccountResolver } from '../stored/account.js';
import { chooseSyncers, DEBUG_MESSAGE } from './chooser.js';
import type { BidderEvaluation } from './chooser.js';
import type { CookieSyncMetrics } from './cookie-sync-metrics.js';
import { gdprSignal, parseCookieSyncRequest, parseGppSid } from './cookie-sync-request.js';
import type { SyncerRegistry } from './syncers.js';
import { decodeUidsCookie, hasAnyLiveUid, liveUid } from './uids-cookie.js';

export interface CookieSyncOptions {
  readonly registry: SyncerRegistry;
  /** The bidder of this server by code (ignoring case, as Prebid Server does), with its GVL id; `undefined`: not a bidder here. */
  readonly bidder: (code: string) => { readonly gvlVendorId?: number } | undefined;
  readonly resolveAccount: AccountResolver;
  readonly privacy: SyncPrivacyChecker;
  readonly metrics: CookieSyncMetrics;
  readonly clock: Clock;
  /** Uniform in [0, 1): the bidders' order. */
  readonly random: () => number;
  readonly host: {
    /** `user_sync.coop_sync.default`. */
    readonly coopSyncDefault: boolean;
    /** `user_sync.priority_groups`. */
    readonly priorityGroups: readonly (readonly string[])[];
    /** `privacy.gdpr.default_value`: whether GDPR applies when a request does not say. */
    readonly gdprDefault: 0 | 1;
    /** The longest wait for a GDPR vendor list version fetched on first use. */
    readonly vendorListWaitMs: number;
  };
}

/** The `/cookie_sync` answer, in Prebid Server's shape and member order. */
export interface CookieSyncAnswer {
  status: 'ok' | 'no_cookie';
  bidder_status: { bidder: string; no_cookie: true; usersync: { url: string; type: string; supportCORS?: true } }[];
  debug?: { bidder: string; error: string }[];
}

/** Port: `/cookie_sync`. Throws `BAD_REQUEST` (400) for bad input and `UNAUTHORIZED` (401) for an opted-out user, with Prebid Server's messages. */
export interface CookieSync {
  run(body: string, uidsCookie: string | undefined): Promise<CookieSyncAnswer>;
}

const ACCOUNT_INVALID = 'account must be valid if provided, please reach out to the prebid server host';

const debugOf = (evaluated: readonly BidderEvaluation[]): CookieSyncAnswer['debug'] => {
  const out: { bidder: string; error: string }[] = [];
  for (const e of evaluated) {
    if (e.status === 'ok') continue;
    // Prebid Server names the family a duplicate shares with an earlier bidder.
    out.push({ bidder: e.bidder, error: e.status === 'duplicate' ? `${DEBUG_MESSAGE.duplicate} synced as ${e.family ?? ''}` : DEBUG_MESSAGE[e.status] });
  }
  return out.length > 0 ? out : undefined;
};

/** `/cookie_sync` as Prebid Server answers it (see docs/user-sync.md). */
export const createCookieSync = (opts: CookieSyncOptions): CookieSync => {
  const run = async (body: string, uidsCookie: string | undefined): Promise<CookieSyncAnswer> => {
    const req = parseCookieSyncRequest(body);
    let account;
    try {
      account = await opts.resolveAccount(req.account === '' ? 'unknown' : req.account);
    } catch (err) {
      if (isAppError(err) && err.code === ErrorCode.UNAUTHORIZED) {
        opts.metrics.request('account_invalid');
        throw new AppError(ErrorCode.BAD_REQUEST, ACCOUNT_INVALID);
      }
      throw err;
    }
    const cs = account.cookie_sync;
    // Prebid Server: a request's limit (even 0, "none") wins over the account's default; max_limit caps both.
    const wanted = req.limit ?? (cs.default_limit > 0 ? cs.default_limit : 0);
    const limit = wanted > 0 ? (cs.max_limit > 0 ? Math.min(wanted, cs.max_limit) : wanted) : cs.max_limit;
    const coopEnabled = req.coopSync ?? cs.default_coop_sync ?? opts.host.coopSyncDefault;
    const priorityGroups = cs.default_coop_sync !== null ? cs.priority_groups : opts.host.priorityGroups;

    const gppSids = parseGppSid(req.gppSid);
    const gdpr = gdprSignal(req.gdpr, gppSids);
    const privacy = await opts.privacy.begin({
      gdpr: gdpr.signal,
      gdprConsent: req.gdprConsent,
      usPrivacy: req.usPrivacy,
      gpp: req.gpp,
      gppSids,
      account: account.privacy,
      maxWaitMs: opts.host.vendorListWaitMs,
    });
    if (privacy.gdprConsent === '') {
      if (gdpr.signal === 1) throw new AppError(ErrorCode.BAD_REQUEST, 'gdpr_consent is required if gdpr=1');
      if (gdpr.signal === undefined && opts.host.gdprDefault === 1) {
        throw new AppError(ErrorCode.BAD_REQUEST, 'gdpr_consent is required. gdpr is not specified and is assumed to be 1 by the server. set gdpr=0 to exempt this request');
      }
    }

    const cookie = decodeUidsCookie(uidsCookie);
    if (cookie.optOut) {
      opts.metrics.request('opt_out');
      throw new AppError(ErrorCode.UNAUTHORIZED, 'User has opted out');
    }
    const now = opts.clock.now();
    const status = hasAnyLiveUid(cookie, now) ? 'ok' : 'no_cookie';
    if (!privacy.hostCookieAllowed) {
      opts.metrics.request('gdpr_blocked_host_cookie');
      return { status, bidder_status: [] };
    }

    const result = chooseSyncers({
      bidders: req.bidders,
      cooperative: { enabled: coopEnabled, priorityGroups },
      limit,
      filter: req.filter,
      registry: opts.registry,
      isKnownBidder: (code) => opts.bidder(code) !== undefined,
      hasLiveSync: (family) => liveUid(cookie, family, now) !== undefined,
      privacy: {
        activityAllows: (bidder) => privacy.activityAllows(bidder),
        regulationsAllow: (bidder) => privacy.bidderAllowed(bidder, opts.bidder(bidder)?.gvlVendorId),
      },
      random: opts.random,
    });
    opts.metrics.request('ok');
    for (const e of result.evaluated) if (e.family !== undefined) opts.metrics.syncer(e.family, e.status);

    const values = { gdpr: gdpr.text, gdprConsent: privacy.gdprConsent, usPrivacy: privacy.usPrivacy, gpp: req.gpp, gppSid: req.gppSid };
    const answer: CookieSyncAnswer = { status, bidder_status: [] };
    for (const { bidder, syncer } of result.chosen) {
      const types: ('iframe' | 'redirect')[] = [];
      if (req.filter.iframe.allowed(bidder)) types.push('iframe');
      if (req.filter.redirect.allowed(bidder)) types.push('redirect');
      const sync = syncer.sync(types, values);
      if (sync === undefined) continue;
      answer.bidder_status.push({ bidder, no_cookie: true, usersync: { url: sync.url, type: sync.type, ...(sync.supportCors ? { supportCORS: true as const } : {}) } });
    }
    if (req.debug) {
      const debug = debugOf(result.evaluated);
      if (debug !== undefined) answer.debug = debug;
    }
    return answer;
  };
  return {
    run: async (body, uidsCookie) => {
      try {
        return await run(body, uidsCookie);
      } catch (err) {
        if (isAppError(err) && err.code === ErrorCode.BAD_REQUEST && err.message !== ACCOUNT_INVALID) opts.metrics.request('bad_request');
        throw err;
      }
    },
  };
};
