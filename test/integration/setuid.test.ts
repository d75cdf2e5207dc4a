import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { TRANSPARENT_PIXEL_PNG } from '../../src/events/pixel.js';
import { decodeUidsCookie, encodeUidsCookie, UID_TTL_MS } from '../../src/usersync/uids-cookie.js';
import type { UidsCookie } from '../../src/usersync/uids-cookie.js';
import { buildTestApp } from '../support/app.js';
import type { TestApp } from '../support/app.js';
import { gppString, tcfString, VENDOR_LIST_FILE } from '../support/consent-strings.js';

/*
 * GET /setuid and GET /getuids through the whole app (Fastify inject), the cases of Prebid
 * Server's setuid_test.go and getuids_test.go. The host is GVL vendor 10 of the test vendor list
 * (purpose 1 on consent), so TCF decisions are made on real consent strings.
 */

const NOW = Date.parse('2025-06-01T00:00:00Z');
const clock = { now: () => NOW };
const DAY = 24 * 60 * 60 * 1000;

/** Purpose 1 and vendor 10 (the host): the cookie may be written. */
const ALLOWS = tcfString({ purposes: [1, 2], vendors: [10] });
/** Vendor 10 without purpose 1: it may not. */
const DENIES = tcfString({ purposes: [2], vendors: [10] });

const cookieOf = (ids: Record<string, string>, expiresAt = NOW + UID_TTL_MS): string =>
  `uids=${encodeUidsCookie({ uids: new Map(Object.entries(ids).map(([f, uid]) => [f, { uid, expiresAt }])), optOut: false })}`;
const OPTED_OUT = `uids=${encodeUidsCookie({ uids: new Map(), optOut: true })}`;

let app: TestApp;

before(async () => {
  app = await buildTestApp(
    {
      adapters: { rubicon: { adapter: 'generic', endpoint: 'http://127.0.0.1:9/' } },
      privacy: { gdpr: { host_vendor_id: 10, vendor_list: { file: VENDOR_LIST_FILE } } },
      accounts: {
        by_id: {
          'sync-on': { privacy: { allowactivities: { syncUser: { default: true } } } },
          'sync-off': { privacy: { allowactivities: { syncUser: { default: false } } } },
          'no-pubmatic': { privacy: { allowactivities: { syncUser: { rules: [{ condition: { componentName: ['pubmatic'] }, allow: false }] } } } },
        },
      },
      metrics: { enabled: true },
    },
    { clock },
  );
});
after(() => app.close());

const get = (url: string, cookie?: string) => app.server.inject({ method: 'GET', url, headers: cookie === undefined ? {} : { cookie } });

/** The ids of the response's `uids` cookie. */
const syncs = (res: { headers: Record<string, unknown> }): Record<string, string> => {
  const header = res.headers['set-cookie'];
  assert.equal(typeof header, 'string', 'one Set-Cookie');
  const m = /^uids=([^;]*);/.exec(header as string);
  assert.ok(m, `a uids cookie: ${String(header)}`);
  const cookie: UidsCookie = decodeUidsCookie(m[1]);
  return Object.fromEntries([...cookie.uids].map(([f, e]) => [f, e.uid]));
};

describe('GET /setuid writes and deletes ids', () => {
  it('sets the id of a known family: 200, empty HTML, the cookie holds it', async () => {
    const res = await get('/setuid?bidder=pubmatic&uid=123');
    assert.equal(res.statusCode, 200);
    assert.equal(res.headers['content-type'], 'text/html');
    assert.equal(res.headers['content-length'], '0');
    assert.equal(res.body, '');
    assert.deepEqual(syncs(res), { pubmatic: '123' });
  });

  it('writes the cookie third-party ready: Path, Expires after host_cookie.ttl_days, Secure, SameSite=None, no Domain by default', async () => {
    const res = await get('/setuid?bidder=pubmatic&uid=123');
    const header = res.headers['set-cookie'] as string;
    assert.match(header, /; Path=\//);
    assert.match(header, new RegExp(`; Expires=${new Date(NOW + 90 * DAY).toUTCString()}`));
    assert.match(header, /; Secure; SameSite=None$/);
    assert.doesNotMatch(header, /Domain=/);
    const entry = decodeUidsCookie(/^uids=([^;]*)/.exec(header)![1]).uids.get('pubmatic');
    assert.equal(entry?.expiresAt, NOW + UID_TTL_MS, 'the id is live 14 days');
  });

  it('matches the bidder case-insensitively', async () => {
    assert.deepEqual(syncs(await get('/setuid?bidder=PUBMATIC&uid=123')), { pubmatic: '123' });
  });

  it('writes under the family the bidder names (adnxs), or the family of a bidder code (appnexus, as Prebid Server redirects)', async () => {
    assert.deepEqual(syncs(await get('/setuid?bidder=adnxs&uid=123')), { adnxs: '123' });
    assert.deepEqual(syncs(await get('/setuid?bidder=appnexus&uid=456')), { adnxs: '456' });
  });

  it('adds to the ids already synced', async () => {
    assert.deepEqual(syncs(await get('/setuid?bidder=pubmatic&uid=123', cookieOf({ rubicon: 'def' }))), { pubmatic: '123', rubicon: 'def' });
  });

  it('an empty uid deletes the family id, and the last one leaves an empty value', async () => {
    assert.deepEqual(syncs(await get('/setuid?bidder=pubmatic', cookieOf({ pubmatic: '1234', rubicon: 'def' }))), { rubicon: 'def' });
    const res = await get('/setuid?bidder=pubmatic&uid=', cookieOf({ pubmatic: '1234' }));
    assert.equal(res.statusCode, 200);
    assert.match(res.headers['set-cookie'] as string, /^uids=; Path=\//);
  });

  it('a cookie that does not decode counts as empty', async () => {
    const res = await get('/setuid?bidder=pubmatic&uid=123', 'uids=%%%not-base64{');
    assert.equal(res.statusCode, 200);
    assert.deepEqual(syncs(res), { pubmatic: '123' });
  });

  it('ignores other cookies and reads uids among them', async () => {
    assert.deepEqual(syncs(await get('/setuid?bidder=pubmatic&uid=9', `a=1; ${cookieOf({ openx: 'o' })}; b=2`)), { pubmatic: '9', openx: 'o' });
  });
});

describe('GET /setuid answers bad input as Prebid Server does', () => {
  const cases: [string, string][] = [
    ['/setuid?bidder=unsupported-bidder&uid=123', 'The bidder name provided is not supported by Prebid Server'],
    ['/setuid?bidder=&uid=123', '"bidder" query param is required'],
    ['/setuid?uid=123', '"bidder" query param is required'],
    ['/setuid?bidder=pubmatic&uid=123&f=x', '"f" query param is invalid. must be "b" or "i"'],
    ['/setuid?bidder=pubmatic&uid=123&gdpr=2', 'the gdpr query param must be either 0 or 1. You gave 2'],
    ['/setuid?bidder=pubmatic&uid=123&gdpr=1', 'GDPR consent is required when gdpr signal equals 1'],
    ['/setuid?bidder=pubmatic&uid=123&gpp_sid=malformed', 'invalid gpp_sid encoding, must be a csv list of integers'],
    ['/setuid?bidder=pubmatic&uid=123&gpp_sid=2', 'GDPR consent is required when gdpr signal equals 1'],
  ];
  for (const [url, message] of cases) {
    it(`${url} → 400 ${message}`, async () => {
      const res = await get(url, cookieOf({ pubmatic: '1234' }));
      assert.equal(res.statusCode, 400);
      assert.equal(res.body, message);
      assert.equal(res.headers['set-cookie'], undefined, 'the cookie is not written back');
    });
  }

  it('an account id over stored_requests.max_id_length: 400 naming the limit, not the id', async () => {
    const res = await get(`/setuid?bidder=pubmatic&uid=123&account=${'a'.repeat(300)}`);
    assert.equal(res.statusCode, 400);
    assert.equal(res.body, 'Invalid account id: longer than the limit of 256 characters');
  });

  it('a gpp that does not decode is a 400 naming it', async () => {
    const res = await get('/setuid?bidder=pubmatic&uid=123&gpp=malformed');
    assert.equal(res.statusCode, 400);
    assert.match(res.body, /^error parsing GPP string: /);
  });
});

describe('GET /setuid response formats', () => {
  it('f=i answers the 1×1 PNG', async () => {
    const res = await get('/setuid?bidder=pubmatic&uid=123&f=i');
    assert.equal(res.statusCode, 200);
    assert.equal(res.headers['content-type'], 'image/png');
    assert.equal(res.headers['content-length'], String(TRANSPARENT_PIXEL_PNG.length));
    assert.deepEqual(res.rawPayload, TRANSPARENT_PIXEL_PNG);
    assert.deepEqual(syncs(res), { pubmatic: '123' });
  });

  it('f=b answers empty HTML; f is read case-insensitively', async () => {
    const b = await get('/setuid?bidder=pubmatic&uid=123&f=b');
    assert.equal(b.headers['content-type'], 'text/html');
    assert.equal(b.body, '');
    assert.equal((await get('/setuid?bidder=pubmatic&uid=123&f=I')).headers['content-type'], 'image/png');
  });
});

describe('GET /setuid privacy', () => {
  it('gdpr=0: consent does not matter', async () => {
    assert.equal((await get('/setuid?bidder=pubmatic&uid=123&gdpr=0')).statusCode, 200);
  });

  it('gdpr=1 with purpose 1 for the host vendor: written', async () => {
    const res = await get(`/setuid?bidder=pubmatic&uid=123&gdpr=1&gdpr_consent=${ALLOWS}`);
    assert.equal(res.statusCode, 200);
    assert.deepEqual(syncs(res), { pubmatic: '123' });
  });

  it('gdpr=1 without purpose 1 for the host vendor: 451, nothing written', async () => {
    const res = await get(`/setuid?bidder=pubmatic&uid=123&gdpr=1&gdpr_consent=${DENIES}`);
    assert.equal(res.statusCode, 451);
    assert.equal(res.body, 'The gdpr_consent string prevents cookies from being saved');
    assert.equal(res.headers['set-cookie'], undefined);
  });

  it('gdpr=1 with purpose 1 but not the host vendor: 451', async () => {
    const res = await get(`/setuid?bidder=pubmatic&uid=123&gdpr=1&gdpr_consent=${tcfString({ purposes: [1], vendors: [20] })}`);
    assert.equal(res.statusCode, 451);
  });

  it('a consent string that does not decode: 400 naming it', async () => {
    const res = await get('/setuid?bidder=pubmatic&uid=123&gdpr=1&gdpr_consent=malformed');
    assert.equal(res.statusCode, 400);
    assert.match(res.body, /^gdpr_consent was invalid\. malformed consent string malformed: /);
  });

  it('the TCF section of gpp (gpp_sid naming it) wins over the legacy gdpr_consent', async () => {
    const gpp = gppString({ tcfEu: ALLOWS });
    for (const f of ['b', 'i']) {
      const res = await get(`/setuid?f=${f}&bidder=pubmatic&uid=123&gpp_sid=2,6&gpp=${gpp}&gdpr=1&gdpr_consent=${DENIES}`);
      assert.equal(res.statusCode, 200, f);
      assert.deepEqual(syncs(res), { pubmatic: '123' });
    }
    const denied = await get(`/setuid?bidder=pubmatic&uid=123&gpp_sid=2&gpp=${gppString({ tcfEu: DENIES })}&gdpr_consent=${ALLOWS}`);
    assert.equal(denied.statusCode, 451);
  });

  it('gpp_sid without the TCF section: GDPR does not apply', async () => {
    assert.equal((await get('/setuid?bidder=pubmatic&uid=123&gpp_sid=100,101')).statusCode, 200);
  });

  it('syncUser activity: allowed, denied by default (451, empty body), denied for one bidder', async () => {
    assert.equal((await get('/setuid?bidder=pubmatic&uid=123&account=sync-on')).statusCode, 200);
    const off = await get('/setuid?bidder=pubmatic&uid=123&account=sync-off');
    assert.equal(off.statusCode, 451);
    assert.equal(off.body, '');
    assert.equal(off.headers['set-cookie'], undefined);
    assert.equal((await get('/setuid?bidder=pubmatic&uid=123&account=no-pubmatic')).statusCode, 451);
    assert.equal((await get('/setuid?bidder=openx&uid=123&account=no-pubmatic')).statusCode, 200);
  });
});

describe('GET /setuid opt-out', () => {
  it('an opted-out cookie: 401, empty body, nothing written (before any other check)', async () => {
    for (const url of ['/setuid?bidder=pubmatic&uid=123', '/setuid?uid=123']) {
      const res = await get(url, OPTED_OUT);
      assert.equal(res.statusCode, 401, url);
      assert.equal(res.body, '');
      assert.equal(res.headers['set-cookie'], undefined);
    }
  });
});

describe('GET /getuids', () => {
  it('answers the ids as buyeruids', async () => {
    const res = await get('/getuids', cookieOf({ adnxs: '123', audienceNetwork: '456' }));
    assert.equal(res.statusCode, 200);
    assert.equal(res.headers['content-type'], 'application/json; charset=utf-8');
    assert.deepEqual(JSON.parse(res.body), { buyeruids: { adnxs: '123', audienceNetwork: '456' } });
  });

  it('expired ids are listed too, as Prebid Server lists them', async () => {
    assert.deepEqual(JSON.parse((await get('/getuids', cookieOf({ adnxs: 'old' }, NOW - DAY))).body), { buyeruids: { adnxs: 'old' } });
  });

  it('no cookie, no ids, an undecodable or opted-out cookie: {}', async () => {
    for (const cookie of [undefined, cookieOf({}), 'uids=garbage!', OPTED_OUT]) {
      const res = await get('/getuids', cookie);
      assert.equal(res.statusCode, 200);
      assert.deepEqual(JSON.parse(res.body), {}, String(cookie));
    }
  });

  it('a family named __proto__ is an ordinary key', async () => {
    assert.deepEqual(JSON.parse((await get('/getuids', cookieOf({ ['__proto__']: 'x' }))).body), JSON.parse('{"buyeruids":{"__proto__":"x"}}'));
  });
});

describe('GET /setuid metrics', () => {
  it('counts results by family and reason; an unknown bidder under one label', async () => {
    await get('/setuid?bidder=openx&uid=1');
    await get('/setuid?bidder=openx&uid=');
    await get('/setuid?bidder=nobody-knows-me&uid=1');
    await get('/setuid?bidder=openx&uid=1', OPTED_OUT);
    const text = (await app.metrics.render()).body;
    assert.match(text, /openbid_setuid_requests_total\{bidder="openx",result="ok"\} [1-9]/);
    assert.match(text, /openbid_setuid_requests_total\{bidder="openx",result="cleared"\} [1-9]/);
    assert.match(text, /openbid_setuid_requests_total\{bidder="openx",result="opted_out"\} [1-9]/);
    assert.match(text, /openbid_setuid_requests_total\{bidder="unknown",result="unknown_bidder"\} [1-9]/);
    assert.doesNotMatch(text, /nobody-knows-me/);
  });
});

describe('GET /setuid with host_cookie settings', () => {
  let hostApp: TestApp;
  before(async () => {
    hostApp = await buildTestApp(
      {
        host_cookie: { domain: 'example.com', ttl_days: 30, max_cookie_size_bytes: 400, optout_cookie: { name: 'nosync', value: 'yes' } },
        accounts: { required: true, by_id: { known: {} } },
      },
      { clock },
    );
  });
  after(() => hostApp.close());
  const hget = (url: string, cookie?: string) => hostApp.server.inject({ method: 'GET', url, headers: cookie === undefined ? {} : { cookie } });

  it('writes Domain and the configured lifetime', async () => {
    const res = await hget('/setuid?bidder=pubmatic&uid=1&account=known');
    assert.equal(res.statusCode, 200);
    assert.match(res.headers['set-cookie'] as string, new RegExp(`; Domain=example.com; Expires=${new Date(NOW + 30 * DAY).toUTCString()}; Secure; SameSite=None$`));
  });

  it('accounts.required: an unknown or missing account is a 400 with Prebid Server message', async () => {
    for (const url of ['/setuid?bidder=pubmatic&uid=1&account=stranger', '/setuid?bidder=pubmatic&uid=1']) {
      const res = await hget(url);
      assert.equal(res.statusCode, 400, url);
      assert.equal(res.body, 'account must be valid if provided, please reach out to the prebid server host');
    }
  });

  it('over max_cookie_size_bytes: the ids that expire first are dropped, the new one kept', async () => {
    const ids = new Map([
      ['openx', { uid: 'o'.repeat(40), expiresAt: NOW + 1 * DAY }],
      ['rubicon', { uid: 'r'.repeat(40), expiresAt: NOW + 5 * DAY }],
      ['appnexus', { uid: 'a'.repeat(40), expiresAt: NOW + 9 * DAY }],
    ]);
    const res = await hget('/setuid?bidder=pubmatic&uid=' + 'p'.repeat(40) + '&account=known', `uids=${encodeUidsCookie({ uids: ids, optOut: false })}`);
    assert.equal(res.statusCode, 200);
    const got = syncs(res);
    assert.equal(got.pubmatic, 'p'.repeat(40));
    assert.equal(got.openx, undefined, 'the oldest id is dropped first');
    assert.ok(Buffer.byteLength(res.headers['set-cookie'] as string) <= 400);
  });

  it('one id alone over the limit: 400, nothing written', async () => {
    const res = await hget('/setuid?bidder=pubmatic&uid=' + 'p'.repeat(500) + '&account=known');
    assert.equal(res.statusCode, 400);
    assert.equal(res.body, "uid that's trying to be synced is bigger than MaxCookieSize");
    assert.equal(res.headers['set-cookie'], undefined);
  });

  it("the host's opt-out cookie: 401 on /setuid, no ids on /getuids", async () => {
    const both = `${cookieOf({ pubmatic: '1' })}; nosync=yes`;
    assert.equal((await hget('/setuid?bidder=pubmatic&uid=1&account=known', both)).statusCode, 401);
    assert.deepEqual(JSON.parse((await hget('/getuids', both)).body), {});
    // Another value is no opt-out.
    assert.deepEqual(JSON.parse((await hget('/getuids', `${cookieOf({ pubmatic: '1' })}; nosync=no`)).body), { buyeruids: { pubmatic: '1' } });
  });
});
