import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { encodeUidsCookie, OPTED_OUT_UIDS_COOKIE } from '../../src/usersync/uids-cookie.js';
import { buildTestApp } from '../support/app.js';
import type { TestApp } from '../support/app.js';
import { tcfString, VENDOR_LIST_FILE } from '../support/consent-strings.js';

/*
 * POST /cookie_sync over Fastify inject, the cases of Prebid Server's endpoints/cookie_sync_test.go:
 * privacy allowed and denied, limit and cooperative sync, filter settings, live, expired, missing,
 * undecodable and opted-out cookies, bad input. Generic bidders with the test vendor list's
 * vendors: alpha 10 (consented below), beta 20 (not), gamma 30.
 */

const EP = 'http://127.0.0.1:9/unused';
const CONFIG = {
  server: { external_url: 'https://pbs.example' },
  adapters: {
    alpha: { adapter: 'generic', endpoint: EP, gvl_vendor_id: 10, usersync: { redirect: { url: 'https://alpha.example/s?gdpr={{.GDPR}}&c={{.GDPRConsent}}&r={{.RedirectURL}}', user_macro: '$UID' } } },
    beta: {
      adapter: 'generic',
      endpoint: EP,
      gvl_vendor_id: 20,
      usersync: {
        cookie_family: 'betafam',
        iframe: { url: 'https://beta.example/if?r={{.RedirectURL}}', user_macro: '[B]' },
        redirect: { url: 'https://beta.example/img?r={{.RedirectURL}}', user_macro: '[B]' },
      },
    },
    gamma: { adapter: 'generic', endpoint: EP, gvl_vendor_id: 30, usersync: { redirect: { url: 'https://gamma.example/s?us={{.USPrivacy}}&r={{.RedirectURL}}', user_macro: 'G' } } },
    nosync: { adapter: 'generic', endpoint: EP },
    nx2: { adapter: 'appnexus' },
  },
  privacy: { gdpr: { vendor_list: { file: VENDOR_LIST_FILE } } },
  accounts: {
    by_id: {
      limited: { cookie_sync: { default_limit: 1, max_limit: 2 } },
      coop: { cookie_sync: { default_coop_sync: true, priority_groups: [['gamma']] } },
      noalpha: { privacy: { allowactivities: { syncUser: { rules: [{ condition: { componentName: ['alpha'] }, allow: false }] } } } },
    },
  },
};

const DAY = 24 * 60 * 60 * 1000;
const cookieWith = (entries: Record<string, number>): string =>
  encodeUidsCookie({ uids: new Map(Object.entries(entries).map(([family, expiresAt]) => [family, { uid: `id-${family}`, expiresAt }])), optOut: false });

interface Answer {
  status: string;
  bidder_status: { bidder: string; no_cookie?: boolean; usersync: { url: string; type: string; supportCORS?: boolean } }[];
  debug?: { bidder: string; error: string }[];
}

describe('POST /cookie_sync', () => {
  let app: TestApp;
  let other: TestApp | undefined;
  before(async () => {
    app = await buildTestApp(CONFIG);
  });
  after(async () => {
    await app.close();
    await other?.close();
  });

  const post = async (body: unknown, headers: Record<string, string> = {}, target = app) =>
    target.server.inject({ method: 'POST', url: '/cookie_sync', headers: { 'content-type': 'text/plain', ...headers }, payload: typeof body === 'string' ? body : JSON.stringify(body) });
  const answer = async (body: unknown, headers: Record<string, string> = {}, target = app): Promise<Answer> => {
    const res = await post(body, headers, target);
    assert.equal(res.statusCode, 200, res.body);
    return JSON.parse(res.body) as Answer;
  };
  const bidders = (a: Answer): string[] => a.bidder_status.map((b) => b.bidder).sort();

  it('offers each requested bidder its sync, with the /setuid redirect escaped, and CORS with credentials', async () => {
    const res = await post({ bidders: ['alpha', 'beta'], gdpr: 0 }, { origin: 'https://publisher.example' });
    assert.equal(res.statusCode, 200);
    assert.equal(res.headers['access-control-allow-origin'], 'https://publisher.example');
    assert.equal(res.headers['access-control-allow-credentials'], 'true');
    assert.match(String(res.headers['content-type']), /^application\/json/);
    const a = JSON.parse(res.body) as Answer;
    assert.equal(a.status, 'no_cookie');
    const alpha = a.bidder_status.find((b) => b.bidder === 'alpha');
    assert.deepEqual(alpha, {
      bidder: 'alpha',
      no_cookie: true,
      usersync: {
        url: 'https://alpha.example/s?gdpr=0&c=&r=https%3A%2F%2Fpbs.example%2Fsetuid%3Fbidder%3Dalpha%26gdpr%3D0%26gdpr_consent%3D%26gpp%3D%26gpp_sid%3D%26f%3Di%26uid%3D%24UID',
        type: 'redirect',
      },
    });
    const beta = a.bidder_status.find((b) => b.bidder === 'beta');
    assert.equal(beta?.usersync.type, 'iframe');
    assert.match(beta?.usersync.url ?? '', /bidder%3Dbetafam.*f%3Db%26uid%3D%5BB%5D$/);
    assert.equal(a.debug, undefined);
  });

  it('skips bidders with a live id; an expired id is synced again', async () => {
    const now = Date.now();
    const a = await answer({ bidders: ['alpha', 'beta'], gdpr: 0, debug: true }, { cookie: `other=1; uids=${cookieWith({ alpha: now + DAY, betafam: now - DAY })}` });
    assert.equal(a.status, 'ok');
    assert.deepEqual(bidders(a), ['beta']);
    assert.deepEqual(a.debug, [{ bidder: 'alpha', error: 'Already in sync' }]);
    const expired = await answer({ bidders: ['alpha'], gdpr: 0 }, { cookie: `uids=${cookieWith({ alpha: now - 1000 })}` });
    assert.equal(expired.status, 'no_cookie');
    assert.deepEqual(bidders(expired), ['alpha']);
  });

  it('treats a cookie that does not decode as no cookie', async () => {
    const a = await answer({ bidders: ['alpha'], gdpr: 0 }, { cookie: 'uids=%%%not-base64{' });
    assert.equal(a.status, 'no_cookie');
    assert.deepEqual(bidders(a), ['alpha']);
  });

  it('answers an opted-out user 401', async () => {
    const res = await post({ bidders: ['alpha'], gdpr: 0 }, { cookie: `uids=${encodeUidsCookie(OPTED_OUT_UIDS_COOKIE)}` });
    assert.equal(res.statusCode, 401);
    assert.match(res.body, /User has opted out/);
  });

  it('reports unknown, unconfigured and duplicate bidders in debug', async () => {
    const a = await answer({ bidders: ['nosync', 'unknown', 'appnexus', 'nx2', 'nx'], gdpr: 0, debug: true });
    // appnexus and nx2 share the adnxs family: whichever comes first in the shuffled order is synced.
    assert.equal(a.bidder_status.length, 1);
    const synced = a.bidder_status[0]!.bidder;
    const dup = synced === 'appnexus' ? 'nx2' : 'appnexus';
    assert.ok(['appnexus', 'nx2'].includes(synced));
    assert.deepEqual(
      a.debug?.sort((x, y) => x.bidder.localeCompare(y.bidder)),
      [
        { bidder: dup, error: 'Duplicate bidder synced as adnxs' },
        { bidder: 'nosync', error: 'No sync config' },
        { bidder: 'nx', error: 'Unsupported bidder' },
        { bidder: 'unknown', error: 'Unsupported bidder' },
      ].sort((x, y) => x.bidder.localeCompare(y.bidder)),
    );
  });

  it('applies limit, and the account default and max limits', async () => {
    assert.equal((await answer({ bidders: ['alpha', 'beta', 'gamma'], gdpr: 0, limit: 1 })).bidder_status.length, 1);
    assert.equal((await answer({ bidders: ['alpha', 'beta', 'gamma'], gdpr: 0, account: 'limited' })).bidder_status.length, 1);
    assert.equal((await answer({ bidders: ['alpha', 'beta', 'gamma'], gdpr: 0, account: 'limited', limit: 3 })).bidder_status.length, 2);
    assert.equal((await answer({ bidders: ['alpha', 'beta', 'gamma'], gdpr: 0, account: 'limited', limit: 0 })).bidder_status.length, 2);
  });

  it('cooperative sync adds priority groups first, then other bidders', async () => {
    const a = await answer({ bidders: ['alpha'], gdpr: 0, account: 'coop', limit: 2 });
    assert.deepEqual(
      a.bidder_status.map((b) => b.bidder),
      ['alpha', 'gamma'],
    );
    const all = await answer({ bidders: [], gdpr: 0, coopSync: true });
    // appnexus and nx2 share one family: one of them, whichever the shuffle put first. Every other
    // bidder with a sync (the configured ones and each built-in) is offered once.
    const offered = bidders(all).map((b) => (b === 'nx2' ? 'appnexus' : b));
    assert.equal(new Set(offered).size, offered.length, `offered twice: ${offered.join(', ')}`);
    for (const expected of ['alpha', 'appnexus', 'beta', 'gamma', 'openx', 'pubmatic', 'sovrn', 'adf']) assert.ok(offered.includes(expected), `${expected} not offered: ${offered.join(', ')}`);
    const off = await answer({ bidders: ['alpha'], gdpr: 0, account: 'coop', coopSync: false });
    assert.deepEqual(bidders(off), ['alpha']);
  });

  it('filters sync types by filterSettings', async () => {
    const a = await answer({ bidders: ['alpha', 'beta'], gdpr: 0, debug: true, filterSettings: { image: { bidders: '*', filter: 'exclude' } } });
    assert.deepEqual(
      a.bidder_status.map((b) => [b.bidder, b.usersync.type]),
      [['beta', 'iframe']],
    );
    assert.deepEqual(a.debug, [{ bidder: 'alpha', error: 'Rejected by request filter' }]);
    const b = await answer({ bidders: ['beta'], gdpr: 0, filterSettings: { iframe: { bidders: ['BETA'], filter: 'exclude' } } });
    assert.equal(b.bidder_status[0]?.usersync.type, 'redirect');
  });

  it('GDPR: purpose 1 for the bidder vendor allows, its absence drops the bidder with a debug reason', async () => {
    const consent = tcfString({ purposes: [1], vendors: [10] });
    const a = await answer({ bidders: ['alpha', 'beta', 'appnexus'], gdpr: 1, gdpr_consent: consent, debug: true });
    assert.deepEqual(bidders(a), ['alpha']);
    assert.ok(a.bidder_status[0]?.usersync.url.includes(`gdpr=1&c=${consent}&`));
    assert.deepEqual(
      a.debug?.sort((x, y) => x.bidder.localeCompare(y.bidder)),
      [
        { bidder: 'appnexus', error: 'Rejected by privacy' },
        { bidder: 'beta', error: 'Rejected by privacy' },
      ],
    );
    const noPurpose = await answer({ bidders: ['alpha'], gdpr: 1, gdpr_consent: tcfString({ purposes: [2], vendors: [10] }) });
    assert.deepEqual(noPurpose.bidder_status, []);
  });

  it('GDPR: no consent with gdpr=1 is a 400; a host vendor without purpose 1 gets no syncs at all', async () => {
    const res = await post({ bidders: ['alpha'], gdpr: 1 });
    assert.equal(res.statusCode, 400);
    assert.match(res.body, /gdpr_consent is required if gdpr=1/);
    other = await buildTestApp({ ...CONFIG, privacy: { gdpr: { host_vendor_id: 20, vendor_list: { file: VENDOR_LIST_FILE } } } });
    const a = await answer({ bidders: ['alpha'], gdpr: 1, gdpr_consent: tcfString({ purposes: [1], vendors: [10] }), debug: true }, {}, other);
    assert.deepEqual(a, { status: 'no_cookie', bidder_status: [] });
    const allowed = await answer({ bidders: ['alpha'], gdpr: 1, gdpr_consent: tcfString({ purposes: [1], vendors: [10, 20] }) }, {}, other);
    assert.deepEqual(bidders(allowed), ['alpha']);
  });

  it('US privacy opt-out and the syncUser activity drop bidders', async () => {
    const usp = await answer({ bidders: ['alpha', 'gamma'], gdpr: 0, us_privacy: '1YYN', debug: true });
    assert.deepEqual(usp.bidder_status, []);
    assert.equal(usp.debug?.length, 2);
    const notOptedOut = await answer({ bidders: ['gamma'], gdpr: 0, us_privacy: '1YNN' });
    assert.ok(notOptedOut.bidder_status[0]?.usersync.url.startsWith('https://gamma.example/s?us=1YNN&'));
    const activity = await answer({ bidders: ['alpha', 'gamma'], gdpr: 0, account: 'noalpha', debug: true });
    assert.deepEqual(bidders(activity), ['gamma']);
    assert.deepEqual(activity.debug, [{ bidder: 'alpha', error: 'Rejected by privacy' }]);
  });

  it('counts requests by result and syncers by family and outcome', async () => {
    const m = await buildTestApp({ ...CONFIG, metrics: { enabled: true } });
    try {
      await m.server.inject({ method: 'POST', url: '/cookie_sync', payload: JSON.stringify({ bidders: ['alpha', 'beta'], gdpr: 0 }), headers: { cookie: `uids=${cookieWith({ betafam: Date.now() + DAY })}` } });
      await m.server.inject({ method: 'POST', url: '/cookie_sync', payload: '{' });
      const text = (await m.metrics.render()).body;
      assert.match(text, /openbid_cookie_sync_requests_total\{result="ok"\} 1/);
      assert.match(text, /openbid_cookie_sync_requests_total\{result="bad_request"\} 1/);
      assert.match(text, /openbid_cookie_sync_syncers_total\{family="alpha",outcome="ok"\} 1/);
      assert.match(text, /openbid_cookie_sync_syncers_total\{family="betafam",outcome="already_synced"\} 1/);
    } finally {
      await m.close();
    }
  });

  it('answers bad input 400 with a message', async () => {
    const cases: [unknown, RegExp][] = [
      // Our words, never the JSON parser's (which quotes the body).
      ['{not json', /^JSON parsing failed: the body is not valid JSON$/],
      [{ bidders: 'alpha' }, /bidders must be an array of strings/],
      [{ gdpr: 2 }, /GDPR signal should be integer 0 or 1/],
      [{ gdpr: 0, gpp_sid: 'x' }, /gpp_sid/],
      [{ gdpr: 0, limit: 'ten' }, /limit must be an integer/],
      [{ gdpr: 0, filterSettings: { iframe: { bidders: '*', filter: 'sometimes' } } }, /error parsing filtersettings.iframe: invalid filter value 'sometimes'/],
      [{ gdpr: 0, filterSettings: { image: { bidders: 'alpha', filter: 'include' } } }, /invalid bidders value `alpha`/],
      [{ gdpr: 0, gpp: 'not-gpp' }, /^gpp is not a valid GPP string: its header is not a GPP version 1 header$/],
    ];
    for (const [body, message] of cases) {
      const res = await post(body);
      assert.equal(res.statusCode, 400, `${JSON.stringify(body)}: ${res.body}`);
      assert.match(res.body, message);
    }
  });
});
