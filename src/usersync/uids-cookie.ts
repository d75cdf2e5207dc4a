import { isObject } from '../core/json-object.js';

/**
 * The `uids` cookie, in Prebid Server's format so a host moving from it keeps its users' ids:
 * base64url (with padding) of `{"tempUIDs":{"<family>":{"uid":"…","expires":"<RFC 3339>"}},
 * "optout":true}`, both members left out when empty or false. Pure: the caller passes `now`.
 */

/** The cookie's name, as Prebid Server names it. */
export const UIDS_COOKIE_NAME = 'uids';

/** How long a synced id counts as live (Prebid Server's `uidTTL`); the cookie itself lives `host_cookie.ttl_days`. */
export const UID_TTL_MS = 14 * 24 * 60 * 60 * 1000;

/** One cookie family's id and when it stops counting as live (epoch ms). */
export interface UidEntry {
  readonly uid: string;
  readonly expiresAt: number;
}

/** A decoded `uids` cookie. Immutable: the functions below answer new values. */
export interface UidsCookie {
  /** Ids by cookie family (a family is usually the bidder code). */
  readonly uids: ReadonlyMap<string, UidEntry>;
  /** The user opted out: no ids are kept or written, syncs are refused. */
  readonly optOut: boolean;
}

export const EMPTY_UIDS_COOKIE: UidsCookie = Object.freeze({ uids: new Map<string, UidEntry>(), optOut: false });

/** Most families a cookie is read with: a real one holds tens; more is not a cookie we wrote. */
const MAX_FAMILIES = 1000;

/**
 * The cookie's value decoded; anything that does not decode (not base64url, not JSON, not the
 * shape) is an empty cookie, never an error: a broken cookie must not fail a request. Entries
 * with an id that is not a string or an expiry that is not a date are dropped one by one; an
 * opted-out cookie has no ids. Audience Network's `0` ("not yet recognised") is dropped, as
 * Prebid Server does.
 */
export const decodeUidsCookie = (value: string | undefined): UidsCookie => {
  if (value === undefined || value === '') return EMPTY_UIDS_COOKIE;
  let parsed: unknown;
  try {
    parsed = JSON.parse(Buffer.from(value, 'base64url').toString('utf8'));
  } catch {
    return EMPTY_UIDS_COOKIE;
  }
  if (!isObject(parsed)) return EMPTY_UIDS_COOKIE;
  if (parsed.optout === true) return { uids: new Map(), optOut: true };
  const uids = new Map<string, UidEntry>();
  const temp = parsed.tempUIDs;
  if (isObject(temp)) {
    for (const [family, entry] of Object.entries(temp)) {
      if (uids.size >= MAX_FAMILIES) break;
      if (!isObject(entry) || typeof entry.uid !== 'string' || typeof entry.expires !== 'string') continue;
      const expiresAt = Date.parse(entry.expires);
      if (Number.isNaN(expiresAt)) continue;
      if (family === 'audienceNetwork' && entry.uid === '0') continue;
      uids.set(family, { uid: entry.uid, expiresAt });
    }
  }
  return uids.size === 0 ? EMPTY_UIDS_COOKIE : { uids, optOut: false };
};

/** A time as Go's `time.Time` writes it in JSON (RFC 3339, fractional seconds only when not zero, trailing zeros cut). */
const goTime = (ms: number): string => new Date(ms).toISOString().replace(/\.(\d*?)0*Z$/, (_, f: string) => (f === '' ? 'Z' : `.${f}Z`));

/** The cookie's value: base64url with padding of its JSON, as Go's `base64.URLEncoding` writes it. */
export const encodeUidsCookie = (cookie: UidsCookie): string => {
  const json: { tempUIDs?: Record<string, { uid: string; expires: string }>; optout?: true } = {};
  if (cookie.uids.size > 0) {
    const temp = Object.create(null) as Record<string, { uid: string; expires: string }>;
    for (const [family, e] of cookie.uids) temp[family] = { uid: e.uid, expires: goTime(e.expiresAt) };
    json.tempUIDs = temp;
  }
  if (cookie.optOut) json.optout = true;
  const b64 = Buffer.from(JSON.stringify(json), 'utf8').toString('base64url');
  return b64 + '='.repeat((4 - (b64.length % 4)) % 4);
};

/** The family's id while it is live (not expired at `now`), else `undefined`. */
export const liveUid = (cookie: UidsCookie, family: string, now: number): string | undefined => {
  const entry = cookie.uids.get(family);
  return entry !== undefined && now < entry.expiresAt ? entry.uid : undefined;
};

/** Whether any id is live at `now`. */
export const hasAnyLiveUid = (cookie: UidsCookie, now: number): boolean => {
  for (const e of cookie.uids.values()) if (now < e.expiresAt) return true;
  return false;
};

/** The cookie with `family`'s id set to `uid`, live for `UID_TTL_MS` from `now`; an opted-out cookie is unchanged. */
export const withUid = (cookie: UidsCookie, family: string, uid: string, now: number): UidsCookie => {
  if (cookie.optOut) return cookie;
  const uids = new Map(cookie.uids);
  uids.set(family, { uid, expiresAt: now + UID_TTL_MS });
  return { uids, optOut: false };
};

/** The cookie without `family`'s id. */
export const withoutUid = (cookie: UidsCookie, family: string): UidsCookie => {
  if (!cookie.uids.has(family)) return cookie;
  const uids = new Map(cookie.uids);
  uids.delete(family);
  return { uids, optOut: cookie.optOut };
};

/** An opted-out cookie: no ids. */
export const OPTED_OUT_UIDS_COOKIE: UidsCookie = Object.freeze({ uids: new Map<string, UidEntry>(), optOut: true });

/** Where and how long the cookie is written (`host_cookie.*`). */
export interface UidsCookieSettings {
  /** `Domain` attribute; empty: none (the cookie stays on the host that set it). */
  readonly domain: string;
  readonly ttlDays: number;
  /** The whole `Set-Cookie` value must fit in this many bytes; 0: no limit. */
  readonly maxCookieSizeBytes: number;
}

/** The `Set-Cookie` header value for an encoded cookie: `Path=/`, `Expires`, optional `Domain`, `Secure; SameSite=None` (a third-party cookie). */
export const uidsSetCookie = (encoded: string, settings: UidsCookieSettings, now: number): string => {
  const expires = new Date(now + settings.ttlDays * 24 * 60 * 60 * 1000).toUTCString();
  const domain = settings.domain === '' ? '' : `; Domain=${settings.domain}`;
  return `${UIDS_COOKIE_NAME}=${encoded}; Path=/${domain}; Expires=${expires}; Secure; SameSite=None`;
};

/**
 * The cookie to write, within `settings.maxCookieSizeBytes`: while the `Set-Cookie` value is too
 * large, the id that expires first is dropped (Prebid Server's oldest-first ejection). Answers
 * `undefined` when even a single id does not fit (Prebid Server refuses that sync).
 */
export const fitUidsCookie = (cookie: UidsCookie, settings: UidsCookieSettings, now: number): { cookie: UidsCookie; encoded: string } | undefined => {
  let current = cookie;
  for (;;) {
    const encoded = encodeUidsCookie(current);
    const size = Buffer.byteLength(uidsSetCookie(encoded, settings, now));
    if (settings.maxCookieSizeBytes <= 0 || size <= settings.maxCookieSizeBytes) return { cookie: current, encoded };
    if (current.uids.size <= 1) return undefined;
    let oldest: string | undefined;
    let oldestAt = Infinity;
    for (const [family, e] of current.uids) {
      if (e.expiresAt < oldestAt) {
        oldest = family;
        oldestAt = e.expiresAt;
      }
    }
    current = withoutUid(current, oldest!);
  }
};
