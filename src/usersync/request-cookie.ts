import { decodeUidsCookie, OPTED_OUT_UIDS_COOKIE, UIDS_COOKIE_NAME } from './uids-cookie.js';
import type { UidsCookie } from './uids-cookie.js';

/** The host's own opt-out cookie (`host_cookie.optout_cookie`): a user carrying `name=value` is opted out. */
export interface OptOutCookie {
  /** Empty: no such cookie. */
  readonly name: string;
  readonly value: string;
}

/**
 * The value of the first cookie named `name` in a `Cookie` header, as Go's `Request.Cookie`
 * finds it (surrounding double quotes removed), or `undefined`.
 */
export const cookieValue = (header: string | undefined, name: string): string | undefined => {
  if (header === undefined || header === '') return undefined;
  // The header is bounded by the HTTP head limit; one pass over its pairs.
  for (const part of header.split(';')) {
    const eq = part.indexOf('=');
    if (eq < 0 || part.slice(0, eq).trim() !== name) continue;
    const value = part.slice(eq + 1).trim();
    return value.length >= 2 && value.startsWith('"') && value.endsWith('"') ? value.slice(1, -1) : value;
  }
  return undefined;
};

/**
 * The user's `uids` cookie from a request's `Cookie` header, as Prebid Server reads it: the
 * host's opt-out cookie, when present with its value, makes an opted-out cookie whatever `uids`
 * holds; a missing or undecodable `uids` is an empty cookie.
 */
export const readUidsCookie = (header: string | undefined, optOut: OptOutCookie): UidsCookie => {
  if (optOut.name !== '' && cookieValue(header, optOut.name) === optOut.value) return OPTED_OUT_UIDS_COOKIE;
  return decodeUidsCookie(cookieValue(header, UIDS_COOKIE_NAME));
};
