import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { decodeUidsCookie, EMPTY_UIDS_COOKIE, encodeUidsCookie, fitUidsCookie, liveUid, OPTED_OUT_UIDS_COOKIE, UID_TTL_MS, uidsSetCookie, withoutUid, withUid } from './uids-cookie.js';

const NOW = Date.parse('2026-11-26T12:00:00Z');
// Prebid Server's own encoder test: {"tempUIDs":{"adnxs":{"uid":"UID","expires":"0001-01-01T00:00:00Z"}}}.
const PBS_ADNXS = 'eyJ0ZW1wVUlEcyI6eyJhZG54cyI6eyJ1aWQiOiJVSUQiLCJleHBpcmVzIjoiMDAwMS0wMS0wMVQwMDowMDowMFoifX19';
/** Go's base64.URLEncoding: base64url with padding. */
const goB64 = (text: string): string => {
  const raw = Buffer.from(text).toString('base64url');
  return raw + '='.repeat((4 - (raw.length % 4)) % 4);
};
const b64 = (json: unknown): string => goB64(JSON.stringify(json));

describe('the uids cookie', () => {
  it("reads and writes Prebid Server's encoding byte for byte", () => {
    const read = decodeUidsCookie(PBS_ADNXS);
    assert.deepEqual([...read.uids], [['adnxs', { uid: 'UID', expiresAt: Date.parse('0001-01-01T00:00:00Z') }]]);
    assert.equal(encodeUidsCookie(read), PBS_ADNXS);
    assert.equal(encodeUidsCookie(EMPTY_UIDS_COOKIE), 'e30=');
    assert.equal(liveUid(read, 'adnxs', NOW), undefined, 'expired in year 1');
  });

  it("a written cookie decodes with Prebid Server's rules: base64url with padding, RFC 3339 expiry", () => {
    const written = encodeUidsCookie(withUid(EMPTY_UIDS_COOKIE, 'rubicon', 'r-1', NOW + 0.5));
    assert.equal(written.length % 4, 0);
    const json = JSON.parse(Buffer.from(written, 'base64url').toString('utf8')) as unknown;
    assert.deepEqual(json, { tempUIDs: { rubicon: { uid: 'r-1', expires: '2026-12-10T12:00:00Z' } } });
    assert.equal(liveUid(decodeUidsCookie(written), 'rubicon', NOW), 'r-1');
    assert.equal(liveUid(decodeUidsCookie(written), 'rubicon', NOW + UID_TTL_MS + 1), undefined);
  });

  it('reads Go nanosecond times and offsets; the opt-out flag drops every id', () => {
    const c = decodeUidsCookie(b64({ tempUIDs: { a: { uid: 'x', expires: '2026-12-01T00:00:00.123456789-04:00' } } }));
    assert.equal(c.uids.get('a')?.expiresAt, Date.parse('2026-12-01T04:00:00.123Z'));
    const out = decodeUidsCookie(b64({ tempUIDs: { a: { uid: 'x', expires: '2027-01-01T00:00:00Z' } }, optout: true }));
    assert.equal(out.optOut, true);
    assert.equal(out.uids.size, 0);
    assert.equal(encodeUidsCookie(OPTED_OUT_UIDS_COOKIE), b64({ optout: true }));
    assert.equal(withUid(OPTED_OUT_UIDS_COOKIE, 'a', 'x', NOW), OPTED_OUT_UIDS_COOKIE);
  });

  it('anything that does not decode is an empty cookie, and bad entries are dropped one by one', () => {
    for (const bad of ['%%%', 'bm90IGpzb24', b64([1]), b64('x'), b64(null)]) assert.equal(decodeUidsCookie(bad), EMPTY_UIDS_COOKIE, bad);
    const c = decodeUidsCookie(b64({ tempUIDs: { ok: { uid: 'u', expires: '2027-01-01T00:00:00Z' }, n: { uid: 5, expires: '2027-01-01T00:00:00Z' }, d: { uid: 'u', expires: 'soon' }, audienceNetwork: { uid: '0', expires: '2027-01-01T00:00:00Z' }, __proto__: { uid: 'p', expires: '2027-01-01T00:00:00Z' } } }).replace(/=+$/, ''));
    assert.deepEqual([...c.uids.keys()], ['ok']);
    const protoText = '{"tempUIDs":{"__proto__":{"uid":"p","expires":"2027-01-01T00:00:00Z"}}}';
    const proto = decodeUidsCookie(goB64(protoText));
    assert.equal(liveUid(proto, '__proto__', NOW), 'p');
    assert.equal(encodeUidsCookie(proto), goB64(protoText));
  });

  it('Set-Cookie: Path, Expires after ttl_days, Domain when set, Secure; SameSite=None', () => {
    assert.equal(uidsSetCookie('e30=', { domain: '', ttlDays: 90, maxCookieSizeBytes: 0 }, NOW), 'uids=e30=; Path=/; Expires=Wed, 24 Feb 2027 12:00:00 GMT; Secure; SameSite=None');
    assert.match(uidsSetCookie('e30=', { domain: 'example.com', ttlDays: 1, maxCookieSizeBytes: 0 }, NOW), /; Domain=example\.com; /);
  });

  it('past max_cookie_size_bytes the ids that expire first are dropped; one id too large is refused', () => {
    let c = EMPTY_UIDS_COOKIE;
    for (let i = 0; i < 10; i++) c = withUid(c, `family${i}`, 'x'.repeat(40), NOW + i * 1000);
    const settings = { domain: '', ttlDays: 90, maxCookieSizeBytes: 500 };
    const fitted = fitUidsCookie(c, settings, NOW)!;
    assert.ok(Buffer.byteLength(uidsSetCookie(fitted.encoded, settings, NOW)) <= 500);
    const kept = [...fitted.cookie.uids.keys()];
    assert.ok(kept.length > 0 && kept.length < 10);
    assert.deepEqual(kept, [...c.uids.keys()].slice(10 - kept.length), 'the newest are kept');
    assert.equal(fitUidsCookie(withUid(EMPTY_UIDS_COOKIE, 'big', 'y'.repeat(600), NOW), settings, NOW), undefined);
    assert.equal(fitUidsCookie(c, { ...settings, maxCookieSizeBytes: 0 }, NOW)!.cookie, c);
    assert.equal(withoutUid(c, 'nope'), c);
  });
});
