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

const ZERO = 0x30;

/**
 * A time (epoch ms, a valid date) as Go's `time.Time` writes it in JSON: RFC 3339, fractional
 * seconds only when not zero, trailing zeros cut. Cut by hand from `toISOString`, which always
 * ends `.sssZ` (half the cost of a regex replace; a cookie has up to 1,000 of them).
 */
export const goTime = (ms: number): string => {
  const iso = new Date(ms).toISOString();
  const dot = iso.length - 5;
  const digits = iso.charCodeAt(dot + 3) !== ZERO ? 3 : iso.charCodeAt(dot + 2) !== ZERO ? 2 : iso.charCodeAt(dot + 1) !== ZERO ? 1 : 0;
  if (digits === 3) return iso;
  return `${iso.slice(0, digits === 0 ? dot : dot + 1 + digits)}Z`;
};

// `toISOString` writes years 0 to 9999 in four digits, others as six with a sign.
const FOUR_DIGIT_YEARS_FROM = Date.parse('0000-01-01T00:00:00Z');
const FOUR_DIGIT_YEARS_UNTIL = Date.parse('+010000-01-01T00:00:00Z');

/**
 * `goTime(ms).length` without formatting it: `YYYY-MM-DDTHH:mm:ssZ` (20 characters, 23 with a
 * six-digit signed year), then `.d`, `.dd` or `.ddd` for milliseconds that are not zero.
 */
export const goTimeLength = (ms: number): number => {
  const whole = Math.trunc(ms); // as Date does
  const milli = ((whole % 1000) + 1000) % 1000;
  const fraction = milli === 0 ? 0 : milli % 100 === 0 ? 2 : milli % 10 === 0 ? 3 : 4;
  return (whole >= FOUR_DIGIT_YEARS_FROM && whole < FOUR_DIGIT_YEARS_UNTIL ? 20 : 23) + fraction;
};

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

/** `:{"uid":`, `,"expires":""` and `}` around an entry's family, id and expiry, and the comma before the next entry. */
const ENTRY_FIXED_BYTES = ':{"uid":,"expires":""},'.length;

/** Bytes one entry adds to the cookie's JSON: `"<family>":{"uid":"<uid>","expires":"<time>"}` and a comma. */
const entryJsonBytes = (family: string, entry: UidEntry): number =>
  Buffer.byteLength(JSON.stringify(family)) + Buffer.byteLength(JSON.stringify(entry.uid)) + goTimeLength(entry.expiresAt) + ENTRY_FIXED_BYTES;

// The JSON around the entries, as encodeUidsCookie writes it: `{"tempUIDs":{…}}`, `,"optout":true`.
const TEMP_UIDS_WRAPPER_BYTES = '{"tempUIDs":{}}'.length;
const OPTOUT_MEMBER_BYTES = ',"optout":true'.length;

/**
 * The length of {@link encodeUidsCookie}'s value for a cookie whose entries' {@link entryJsonBytes}
 * add up to `entriesBytes` (commas included, one too many), without encoding it: the JSON's bytes,
 * then base64 with padding (4 characters per 3 bytes, rounded up).
 */
const encodedLength = (entriesBytes: number, count: number, optOut: boolean): number => {
  const json = count === 0 ? (optOut ? OPTOUT_MEMBER_BYTES + 1 : 2) : TEMP_UIDS_WRAPPER_BYTES + entriesBytes - 1 + (optOut ? OPTOUT_MEMBER_BYTES : 0);
  return 4 * Math.ceil(json / 3);
};

/**
 * The cookie to write, within `settings.maxCookieSizeBytes`: while the `Set-Cookie` value is too
 * large, the id that expires first is dropped (Prebid Server's oldest-first ejection; of ids that
 * expire together, the one first in the cookie). Answers `undefined` when even a single id does
 * not fit (Prebid Server refuses that sync).
 *
 * The cookie is encoded once, whatever the number of ids dropped: each entry's share of the
 * encoded length is measured once, and dropping one subtracts its share (one sort, then linear).
 * The answer is the one encoding the cookie after each drop would choose, byte for byte
 * (`uids-cookie.test.ts` checks it against that on random cookies). Entries' `expiresAt` must be
 * valid dates, as {@link decodeUidsCookie} and {@link withUid} make them.
 */
export const fitUidsCookie = (cookie: UidsCookie, settings: UidsCookieSettings, now: number): { cookie: UidsCookie; encoded: string } | undefined => {
  const max = settings.maxCookieSizeBytes;
  if (max <= 0) return { cookie, encoded: encodeUidsCookie(cookie) };
  const entries = [...cookie.uids];
  const shares = entries.map(([family, entry]) => entryJsonBytes(family, entry));
  const fixedBytes = Buffer.byteLength(uidsSetCookie('', settings, now));
  let count = entries.length;
  let entriesBytes = shares.reduce((sum, n) => sum + n, 0);
  const fits = (): boolean => fixedBytes + encodedLength(entriesBytes, count, cookie.optOut) <= max;
  if (fits()) return { cookie, encoded: encodeUidsCookie(cookie) };

  // First to go: the earliest expiry; a stable sort keeps the cookie's order among equal ones.
  const dropOrder = entries.map((_, i) => i).sort((a, b) => entries[a]![1].expiresAt - entries[b]![1].expiresAt);
  const dropped = new Uint8Array(entries.length);
  for (let next = 0; !fits(); next++) {
    if (count <= 1) return undefined;
    const i = dropOrder[next]!;
    dropped[i] = 1;
    entriesBytes -= shares[i]!;
    count--;
  }
  const uids = new Map<string, UidEntry>();
  entries.forEach(([family, entry], i) => {
    if (dropped[i] === 0) uids.set(family, entry);
  });
  const fitted: UidsCookie = { uids, optOut: cookie.optOut };
  return { cookie: fitted, encoded: encodeUidsCookie(fitted) };
};
