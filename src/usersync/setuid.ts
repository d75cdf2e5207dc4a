import { ErrorCode, isAppError } from '../core/app-error.js';
import type { Clock } from '../core/clock.js';
import type { UserSyncPrivacy } from '../privacy/user-sync.js';
import type { Account, AccountResolver } from '../stored/account.js';
import { isInvalidStoredData } from '../stored/errors.js';
import { readUidsCookie } from './request-cookie.js';
import type { OptOutCookie } from './request-cookie.js';
import { parseGppSids, readSetuidGdpr } from './setuid-consent.js';
import type { QueryParam } from './setuid-consent.js';
import { UNKNOWN_FAMILY_LABEL } from './setuid-metrics.js';
import type { SetuidMetrics, SetuidReason } from './setuid-metrics.js';
import { fitUidsCookie, uidsSetCookie, withoutUid, withUid } from './uids-cookie.js';
import type { UidsCookie, UidsCookieSettings } from './uids-cookie.js';

/** The answer's body on success: `i` a 1×1 PNG (a redirect sync's image), `b` an empty HTML page (an iframe sync). */
export type SetuidFormat = 'i' | 'b';

/** What `/setuid` answers; the route writes it. */
export interface SetuidOutcome {
  readonly status: number;
  readonly reason: SetuidReason;
  /** On success: the body's form. */
  readonly format?: SetuidFormat;
  /** An error's plain-text body (Prebid Server's message); absent: empty body. */
  readonly message?: string;
  /** The `Set-Cookie` value, on success only. */
  readonly setCookie?: string;
}

export interface SetuidOptions {
  /**
   * The cookie family `bidder` names: a family this server syncs (what its own redirect URLs
   * carry), or a bidder code with user sync info (what Prebid Server's carry); `undefined`: neither.
   */
  readonly familyOf: (bidder: string) => string | undefined;
  /** The body when the request has no `f`: the family's default sync type (iframe `b`, else redirect `i`); `b` when not given. */
  readonly defaultFormatOf?: (family: string) => SetuidFormat;
  readonly resolveAccount: AccountResolver;
  readonly privacy: UserSyncPrivacy;
  readonly cookie: UidsCookieSettings;
  readonly optOutCookie: OptOutCookie;
  readonly clock: Clock;
  readonly metrics: SetuidMetrics;
}

/** Writes (or, with an empty `uid`, removes) one family's id in the `uids` cookie, as Prebid Server's `GET /setuid`. */
export interface SetuidService {
  /** Never rejects for bad input (it is an outcome); rejects only when the account source fails. */
  handle(q: QueryParam, cookieHeader: string | undefined): Promise<SetuidOutcome>;
}

const MSG = {
  bidderRequired: '"bidder" query param is required',
  bidderUnknown: 'The bidder name provided is not supported by Prebid Server',
  badFormat: '"f" query param is invalid. must be "b" or "i"',
  accountInvalid: 'account must be valid if provided, please reach out to the prebid server host',
  accountMalformed: 'account config is malformed and could not be read',
  badGppSid: 'invalid gpp_sid encoding, must be a csv list of integers',
  gdprDenied: 'The gdpr_consent string prevents cookies from being saved',
  tooLarge: "uid that's trying to be synced is bigger than MaxCookieSize",
} as const;

/** Prebid Server names Audience Network's "not yet recognised" user with this id; it is never stored. */
const isAudienceNetworkUnknown = (family: string, uid: string): boolean => family === 'audienceNetwork' && uid === '0';

export const createSetuidService = (opts: SetuidOptions): SetuidService => {
  // Bidder codes are matched case-insensitively by Prebid Server; families here are lower case but for a few.
  const familyOf = (bidder: string): string | undefined => {
    const lower = bidder.toLowerCase();
    return opts.familyOf(bidder) ?? (lower !== bidder ? opts.familyOf(lower) : undefined);
  };
  const done = (label: string, outcome: SetuidOutcome): SetuidOutcome => {
    opts.metrics.result(label, outcome.reason);
    return outcome;
  };
  const fail = (label: string, status: number, reason: SetuidReason, message?: string): SetuidOutcome =>
    done(label, message === undefined ? { status, reason } : { status, reason, message });

  /** The account, or why the request is refused (400); a source that fails or times out rejects. */
  const account = async (id: string): Promise<Account | { reason: SetuidReason; message: string }> => {
    try {
      return await opts.resolveAccount(id);
    } catch (err) {
      if (isInvalidStoredData(err)) return { reason: 'account_refused', message: MSG.accountMalformed };
      if (isAppError(err) && err.code === ErrorCode.UNAUTHORIZED) return { reason: 'account_refused', message: MSG.accountInvalid };
      // An id over stored_requests.max_id_length, refused before any source is asked.
      if (isAppError(err) && err.code === ErrorCode.BAD_REQUEST) return { reason: 'bad_request', message: err.message };
      throw err;
    }
  };

  const write = (label: string, cookie: UidsCookie, reason: SetuidReason, format: SetuidFormat, now: number): SetuidOutcome => {
    let encoded = '';
    // No ids left: an empty value, as Prebid Server writes it.
    if (cookie.uids.size > 0) {
      const fitted = fitUidsCookie(cookie, opts.cookie, now);
      if (fitted === undefined) return fail(label, 400, 'too_large', MSG.tooLarge);
      encoded = fitted.encoded;
    }
    return done(label, { status: 200, reason, format, setCookie: uidsSetCookie(encoded, opts.cookie, now) });
  };

  return {
    async handle(q, cookieHeader) {
      const bidder = q('bidder') ?? '';
      const family = bidder === '' ? undefined : familyOf(bidder);
      const label = family ?? UNKNOWN_FAMILY_LABEL;

      const cookie = readUidsCookie(cookieHeader, opts.optOutCookie);
      if (cookie.optOut) return fail(label, 401, 'opted_out');
      if (bidder === '') return fail(label, 400, 'unknown_bidder', MSG.bidderRequired);
      if (family === undefined) return fail(label, 400, 'unknown_bidder', MSG.bidderUnknown);

      const f = (q('f') ?? '').toLowerCase();
      if (f !== '' && f !== 'b' && f !== 'i') return fail(label, 400, 'bad_request', MSG.badFormat);
      const format: SetuidFormat = f === 'b' || f === 'i' ? f : (opts.defaultFormatOf?.(family) ?? 'b');

      const acct = await account(q('account') ?? '');
      if ('reason' in acct) return fail(label, 400, acct.reason, acct.message);

      const sids = parseGppSids(q('gpp_sid') ?? '');
      if (sids === undefined) return fail(label, 400, 'bad_request', MSG.badGppSid);
      // Prebid Server names the component as the request does, not by its family.
      if (!opts.privacy.syncUserAllowed(bidder, sids, acct.privacy)) return fail(label, 451, 'privacy');

      const gdpr = readSetuidGdpr(q, (text) => opts.privacy.decodeGpp(text));
      if ('error' in gdpr) return fail(label, 400, 'bad_request', gdpr.error);
      const verdict = await opts.privacy.hostCookie(gdpr.gdpr, gdpr.consent, acct.privacy);
      if (verdict.kind === 'malformed') return fail(label, 400, 'bad_request', `gdpr_consent was invalid. ${verdict.error}`);
      if (verdict.kind === 'denied') return fail(label, 451, 'privacy', MSG.gdprDenied);

      const now = opts.clock.now();
      const uid = q('uid') ?? '';
      if (uid === '') return write(label, withoutUid(cookie, family), 'cleared', format, now);
      // Prebid Server still writes the cookie as it was read.
      if (isAudienceNetworkUnknown(family, uid)) return write(label, cookie, 'ignored', format, now);
      return write(label, withUid(cookie, family, uid, now), 'ok', format, now);
    },
  };
};
