import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { BUILTIN_ADAPTERS } from '../bidders/builtin.js';
import { loadConfig } from './load.js';
import { isHttpUrl, urlProblems } from './url-checks.js';
import { problemsOf } from '../../test/support/config-problems.js';

const texts = (doc: unknown, skip: string[] = []): string[] => urlProblems(doc, new Set(skip)).map((p) => p.text);

describe('urlProblems', () => {
  it("refuses a bidder endpoint that is no absolute http(s) URL, each bidder's on its own", () => {
    const adapters = {
      a: { endpoint: 'localhost:9000/bid' },
      b: { endpoint: 'ftp://bids.example/x' },
      c: { endpoint: '/openrtb2' },
      d: { endpoint: 'https://bids example/x' },
      e: { endpoint: 'http://' },
      ok: { endpoint: 'https://bids.example/rtb?src=openbid' },
      unset: { endpoint: '' },
    };
    assert.deepEqual(texts({ server: { external_url: 'http://x' }, adapters }), [
      'adapters.a.endpoint: must be an absolute http(s) URL (value "localhost:9000/bid")',
      'adapters.b.endpoint: must be an absolute http(s) URL (value "ftp://bids.example/x")',
      'adapters.c.endpoint: must be an absolute http(s) URL (value "/openrtb2")',
      'adapters.d.endpoint: must be an absolute http(s) URL (value "https://bids example/x")',
      'adapters.e.endpoint: must be an absolute http(s) URL (value "http://")',
    ]);
  });

  it('takes templates that are URLs once their macros are filled', () => {
    const adapters = {
      host: { endpoint: 'https://{{.Host}}/bid?account={{.AccountID}}' },
      region: { endpoint: 'https://{{.Region}}.bids.example/x', usersync: { redirect: { url: 'https://sync.example/?r={{.RedirectURL}}', redirect_url: '{{.ExternalURL}}/setuid?b=x&uid=$UID' } } },
      bad: { endpoint: '{{.Scheme}}://bids.example', usersync: { iframe: { url: 'sync.example/{{.RedirectURL}}' } } },
    };
    assert.deepEqual(texts({ server: { external_url: 'http://x' }, adapters, user_sync: { redirect_url: '{{.ExternalURL}}/setuid?bidder={{.SyncerKey}}' } }), [
      'adapters.bad.endpoint: must be an absolute http(s) URL (value "{{.Scheme}}://bids.example")',
      'adapters.bad.usersync.iframe.url: must be an absolute http(s) URL (value "sync.example/{{.RedirectURL}}")',
    ]);
  });

  it('checks every other URL-valued key when set, and server.external_url always', () => {
    const doc = {
      server: { external_url: '' },
      auction: { cache: { url: 'cache', public_url: 'x' }, currency: { url: 'http://a b/r.json' } },
      analytics: { http: { endpoint: 'udp://collector:9' } },
      accounts: { http: { endpoint: 'accounts.example' } },
      stored_requests: { http: { endpoint: 'stored.example' } },
      privacy: { gdpr: { vendor_list: { url: 'gvl', archive_url: 'https://gvl.example/v{version}.json' } } },
      user_sync: { redirect_url: 'setuid', recaptcha: { verify_url: 'google' } },
      host_cookie: { opt_out_url: '/out', opt_in_url: 'https://publisher.example/in' },
    };
    assert.deepEqual(
      urlProblems(doc, new Set()).map((p) => p.path),
      [
        'server.external_url',
        'auction.cache.url',
        'auction.cache.public_url',
        'auction.currency.url',
        'analytics.http.endpoint',
        'accounts.http.endpoint',
        'stored_requests.http.endpoint',
        'privacy.gdpr.vendor_list.url',
        'user_sync.redirect_url',
        'user_sync.recaptcha.verify_url',
        'host_cookie.opt_out_url',
      ],
    );
  });

  it('leaves values the schema refused, or of another type, to the schema, and masks credentials', () => {
    assert.deepEqual(texts({ server: { external_url: 5 }, adapters: { a: { endpoint: 'x' }, b: 'nope' } }, ['adapters.a']), []);
    assert.deepEqual(texts({ server: { external_url: 'ftp://user:s3cret@host/' } }), ['server.external_url: must be an absolute http(s) URL (value "ftp://user:redacted@host/")']);
  });
});

describe('isHttpUrl', () => {
  it('takes absolute http and https URLs with a host only', () => {
    for (const ok of ['http://a', 'https://a.example:8443/x?y#z', 'http://127.0.0.1:9/']) assert.ok(isHttpUrl(ok), ok);
    for (const bad of ['', 'a', '//a', 'http://', 'https:///x y', 'file:///etc/passwd', 'ws://a']) assert.ok(!isHttpUrl(bad), bad);
  });
});

describe('loadConfig and bidder endpoints', () => {
  it('refuses a bad endpoint at start, listed with the schema problems', () => {
    const problems = problemsOf(() => loadConfig({ raw: { adapters: { mybidder: { adapter: 'generic', endpoint: 'bids.example/rtb' } }, server: { prot: 1 } } }));
    assert.deepEqual(problems, [
      'server.prot: unknown key (value 1); did you mean server.port?',
      'adapters.mybidder.endpoint: must be an absolute http(s) URL (value "bids.example/rtb")',
    ]);
  });

  it('names the environment variable that set a bad endpoint', () => {
    const problems = problemsOf(() => loadConfig({ raw: {}, env: { OPENBID_ADAPTERS__appnexus__ENDPOINT: 'ib.adnxs.example' } }));
    assert.deepEqual(problems, ['adapters.appnexus.endpoint: must be an absolute http(s) URL (value "ib.adnxs.example") (set by OPENBID_ADAPTERS__appnexus__ENDPOINT)']);
  });

  it("takes every built-in adapter's own endpoint and sync URLs written into the config, and a generic bidder on 127.0.0.1", () => {
    const adapters: Record<string, unknown> = { mine: { adapter: 'generic', endpoint: 'http://127.0.0.1:9000/bid' } };
    for (const [code, module] of Object.entries(BUILTIN_ADAPTERS)) {
      const { endpoint, userSync } = module.info;
      const sync = (e: { url: string } | undefined): unknown => (e === undefined ? undefined : { url: e.url });
      adapters[code] = { endpoint, usersync: { redirect: sync(userSync?.redirect), iframe: sync(userSync?.iframe) } };
    }
    assert.equal(loadConfig({ raw: { adapters } }).adapters.mine?.endpoint, 'http://127.0.0.1:9000/bid');
  });
});
