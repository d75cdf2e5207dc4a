import type { Clock } from '../core/clock.js';
import { readUidsCookie } from './request-cookie.js';
import type { OptOutCookie } from './request-cookie.js';
import { EMPTY_UIDS_COOKIE, encodeUidsCookie, OPTED_OUT_UIDS_COOKIE, uidsSetCookie } from './uids-cookie.js';
import type { UidsCookieSettings } from './uids-cookie.js';

/** What `/optout` answers: a redirect to the host's page, or a short text, and the cookie to write. */
export interface OptOutOutcome {
  readonly status: number;
  readonly setCookie?: string;
  /** Where a 301 sends the user (`host_cookie.opt_out_url` / `opt_in_url`). */
  readonly location?: string;
  readonly message?: string;
}

export interface OptOutOptions {
  readonly cookie: UidsCookieSettings;
  readonly optOutCookie: OptOutCookie;
  readonly clock: Clock;
  /** Pages the user is sent to afterwards; empty: a 200 with a short text instead. */
  readonly optOutUrl: string;
  readonly optInUrl: string;
  /**
   * Checks a reCAPTCHA answer (`g-recaptcha-response`), as Prebid Server requires one; resolves
   * false when it is refused or cannot be checked. Absent: no captcha is configured.
   */
  readonly verifyCaptcha?: (response: string) => Promise<boolean>;
  /** This server's own origin (`server.external_url`): without a captcha, only its pages may opt a user back in. */
  readonly ownOrigin: string;
}

/** The parts of the request `/optout` reads: its parameters (form or query) and where it came from. */
export interface OptOutRequest {
  param(name: string): string | undefined;
  readonly cookieHeader: string | undefined;
  /** `Origin`, else the origin of `Referer`: the page that sent the user. */
  readonly sourceOrigin: string | undefined;
}

/**
 * `/optout`, as Prebid Server's: a non-empty `optout` sets the cookie's opt-out flag and drops
 * every id; an empty or missing one clears the flag (opt back in). With a captcha configured, its
 * answer must verify (400 without one, 401 when refused), as Prebid Server requires. Without one,
 * opting out is open to any page (it only withholds ids), but opting back in must come from this
 * server's own origin: otherwise any site could post a hidden form and undo a user's choice.
 */
export const createOptOut = (opts: OptOutOptions) => ({
  async handle(req: OptOutRequest): Promise<OptOutOutcome> {
    const optOut = (req.param('optout') ?? '') !== '';
    if (opts.verifyCaptcha !== undefined) {
      const response = req.param('g-recaptcha-response') ?? '';
      if (response === '') return { status: 400, message: 'g-recaptcha-response is required' };
      if (!(await opts.verifyCaptcha(response))) return { status: 401, message: 'the reCAPTCHA answer was not accepted' };
    } else if (!optOut && req.sourceOrigin !== opts.ownOrigin) {
      return { status: 403, message: "opting back in must come from this server's own page, or be confirmed with a reCAPTCHA (user_sync.recaptcha.secret)" };
    }
    const current = readUidsCookie(req.cookieHeader, opts.optOutCookie);
    const next = optOut ? OPTED_OUT_UIDS_COOKIE : current.optOut ? EMPTY_UIDS_COOKIE : current;
    const setCookie = uidsSetCookie(encodeUidsCookie(next), opts.cookie, opts.clock.now());
    const location = optOut ? opts.optOutUrl : opts.optInUrl;
    if (location !== '') return { status: 301, setCookie, location };
    return { status: 200, setCookie, message: optOut ? 'opted out: bidders receive no id of yours from this server' : 'opted in' };
  },
});

export type OptOut = ReturnType<typeof createOptOut>;
