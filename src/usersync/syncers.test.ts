import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { appnexusAdapter } from '../bidders/appnexus/index.js';
import { genericAdapter } from '../bidders/generic/index.js';
import { openxAdapter } from '../bidders/openx/index.js';
import { pubmaticAdapter } from '../bidders/pubmatic/index.js';
import { buildSyncTemplate, escapeTemplate, fillSyncUrl, goQueryEscape } from './sync-url.js';
import { createSyncer, createSyncerRegistry, syncingBidders } from './syncers.js';

// Prebid Server's usersync/syncer_test.go TestBuildTemplate: key "anyKey", sync type "x", host
// external URL http://host.com and redirect "{{.ExternalURL}}/host", values A B C D 1.
const VALUES = { gdpr: 'A', gdprConsent: 'B', usPrivacy: 'C', gpp: 'D', gppSid: '1' };
const HOST_REDIRECT = '{{.ExternalURL}}/host';
const render = (url: string, redirect: string | undefined, externalUrl = 'http://host.com', userMacro = ''): string =>
  fillSyncUrl(buildSyncTemplate(url, redirect ?? HOST_REDIRECT, { externalUrl, family: 'anyKey', syncType: 'x' as 'b', userMacro }), VALUES);

describe('sync URL templates (Prebid Server buildTemplate cases)', () => {
  const cases: { name: string; url: string; redirect?: string; externalUrl?: string; userMacro?: string; want: string }[] = [
    { name: 'no composed macros', url: 'hasNoComposedMacros,gdpr={{.GDPR}}', want: 'hasNoComposedMacros,gdpr=A' },
    {
      name: 'all composed macros, SyncerKey',
      url: 'https://bidder.com/sync?redirect={{.RedirectURL}}',
      redirect: '{{.ExternalURL}}/setuid?bidder={{.SyncerKey}}&f={{.SyncType}}&gdpr={{.GDPR}}&gpp={{.GPP}}&gpp_sid={{.GPPSID}}&uid={{.UserMacro}}',
      externalUrl: 'http://syncer.com',
      userMacro: '$UID$',
      want: 'https://bidder.com/sync?redirect=http%3A%2F%2Fsyncer.com%2Fsetuid%3Fbidder%3DanyKey%26f%3Dx%26gdpr%3DA%26gpp%3DD%26gpp_sid%3D1%26uid%3D%24UID%24',
    },
    {
      name: 'all composed macros, BidderName',
      url: 'https://bidder.com/sync?redirect={{.RedirectURL}}',
      redirect: '{{.ExternalURL}}/setuid?bidder={{.BidderName}}&f={{.SyncType}}&gdpr={{.GDPR}}&gpp={{.GPP}}&gpp_sid={{.GPPSID}}&uid={{.UserMacro}}',
      externalUrl: 'http://syncer.com',
      userMacro: '$UID$',
      want: 'https://bidder.com/sync?redirect=http%3A%2F%2Fsyncer.com%2Fsetuid%3Fbidder%3DanyKey%26f%3Dx%26gdpr%3DA%26gpp%3DD%26gpp_sid%3D1%26uid%3D%24UID%24',
    },
    { name: 'redirect and external URL from host', url: 'https://bidder.com/sync?redirect={{.RedirectURL}}', want: 'https://bidder.com/sync?redirect=http%3A%2F%2Fhost.com%2Fhost' },
    { name: 'redirect URL from syncer', url: 'https://bidder.com/sync?redirect={{.RedirectURL}}', redirect: '{{.ExternalURL}}/syncer', want: 'https://bidder.com/sync?redirect=http%3A%2F%2Fhost.com%2Fsyncer' },
    {
      name: 'user macro that looks like a Go macro is escaped',
      url: 'https://bidder.com/sync?redirect={{.RedirectURL}}',
      redirect: '{{.ExternalURL}}/setuid?bidder={{.SyncerKey}}&f={{.SyncType}}&gdpr={{.GDPR}}&uid={{.UserMacro}}',
      userMacro: '{{UID}}',
      want: 'https://bidder.com/sync?redirect=http%3A%2F%2Fhost.com%2Fsetuid%3Fbidder%3DanyKey%26f%3Dx%26gdpr%3DA%26uid%3D%7B%7BUID%7D%7D',
    },
    { name: 'macro-like literal, external URL', url: 'https://bidder.com/sync?redirect={{.RedirectURL}}', redirect: '{{xExternalURL}}', want: 'https://bidder.com/sync?redirect=%7B%7BxExternalURL%7D%7D' },
    { name: 'macro-like literal, syncer key', url: 'https://bidder.com/sync?redirect={{.RedirectURL}}', redirect: '{{xSyncerKey}}', want: 'https://bidder.com/sync?redirect=%7B%7BxSyncerKey%7D%7D' },
    { name: 'macro-like literal, user macro', url: 'https://bidder.com/sync?redirect={{.RedirectURL}}', redirect: '{{xUserMacro}}', want: 'https://bidder.com/sync?redirect=%7B%7BxUserMacro%7D%7D' },
    { name: 'PBS Java spellings', url: 'https://b.com/s?gdpr={{gdpr}}&c={{gdpr_consent}}&u={{us_privacy}}&g={{gpp}}&s={{gpp_sid}}&r={{redirect_url}}', redirect: 'x?g={{gdpr}}', want: 'https://b.com/s?gdpr=A&c=B&u=C&g=D&s=1&r=x%3Fg%3DA' },
  ];
  for (const c of cases) {
    it(c.name, () => assert.equal(render(c.url, c.redirect, c.externalUrl, c.userMacro), c.want));
  }

  it("escapes as Go's url.QueryEscape (space as +, !'()* escaped)", () => {
    assert.equal(goQueryEscape("a b!'()*~-_.é/"), 'a+b%21%27%28%29%2A~-_.%C3%A9%2F');
    assert.equal(escapeTemplate('a=1&b={{.GDPR}}&c={{ .GPP }}'), 'a%3D1%26b%3D{{.GDPR}}%26c%3D{{ .GPP }}');
  });

  it('fills request values as they are (Go text/template does not escape)', () => {
    assert.equal(fillSyncUrl('https://b.com/?c={{.GDPRConsent}}&s={{.GPPSID}}', { ...VALUES, gdprConsent: 'a&b=c', gppSid: '2,6' }), 'https://b.com/?c=a&b=c&s=2,6');
  });
});

describe('syncers', () => {
  const host = { externalUrl: 'https://pbs.example.com', redirectUrl: '' };

  it('builds the default /setuid redirect with the family, f=i for redirect and f=b for iframe', () => {
    const problems: string[] = [];
    const s = createSyncer('fam', { iframe: { url: 'https://b.com/if?r={{.RedirectURL}}', userMacro: '$U' }, redirect: { url: 'https://b.com/img?r={{.RedirectURL}}', userMacro: '$U' } }, host, problems)!;
    assert.deepEqual(problems, []);
    assert.equal(s.defaultType, 'iframe');
    const v = { gdpr: '1', gdprConsent: 'CO', usPrivacy: '', gpp: '', gppSid: '' };
    assert.deepEqual(s.sync(['iframe', 'redirect'], v), {
      url: 'https://b.com/if?r=https%3A%2F%2Fpbs.example.com%2Fsetuid%3Fbidder%3Dfam%26gdpr%3D1%26gdpr_consent%3DCO%26gpp%3D%26gpp_sid%3D%26f%3Db%26uid%3D%24U',
      type: 'iframe',
      supportCors: false,
    });
    assert.equal(s.sync(['redirect'], v)?.url, 'https://b.com/img?r=https%3A%2F%2Fpbs.example.com%2Fsetuid%3Fbidder%3Dfam%26gdpr%3D1%26gdpr_consent%3DCO%26gpp%3D%26gpp_sid%3D%26f%3Di%26uid%3D%24U');
    assert.equal(s.sync([], v), undefined);
  });

  it('prefers the default type, else the allowed one it has (Prebid Server chooseSyncType)', () => {
    const redirectOnly = createSyncer('r', { redirect: { url: 'https://b.com/?r={{.RedirectURL}}', userMacro: '' } }, host, [])!;
    assert.equal(redirectOnly.defaultType, 'redirect');
    assert.equal(redirectOnly.sync(['iframe', 'redirect'], { gdpr: '', gdprConsent: '', usPrivacy: '', gpp: '', gppSid: '' })?.type, 'redirect');
    assert.equal(redirectOnly.supports(['iframe']), false);
    assert.equal(redirectOnly.sync(['iframe'], { gdpr: '', gdprConsent: '', usPrivacy: '', gpp: '', gppSid: '' }), undefined);
  });

  it('uses user_sync.redirect_url and refuses unknown macros and non-URLs at start', () => {
    const s = createSyncer('f', { redirect: { url: 'https://b.com/?r={{.RedirectURL}}', userMacro: 'X' } }, { externalUrl: 'https://h', redirectUrl: 'https://other/sync?b={{.BidderName}}&u={{.UserMacro}}' }, [])!;
    assert.equal(s.sync(['redirect'], { gdpr: '', gdprConsent: '', usPrivacy: '', gpp: '', gppSid: '' })?.url, 'https://b.com/?r=https%3A%2F%2Fother%2Fsync%3Fb%3Df%26u%3DX');
    const problems: string[] = [];
    assert.equal(createSyncer('f', { redirect: { url: 'https://b.com/?r={{malformed}}', userMacro: '' } }, host, problems), undefined);
    assert.equal(createSyncer('f', { redirect: { url: 'not a url {{.GDPR}}', userMacro: '' } }, host, problems), undefined);
    assert.equal(createSyncer('f', {}, host, problems), undefined);
    assert.equal(problems.length, 3);
  });

  it('registers the built-in adapters by family, config replacing and adding, aliases sharing', () => {
    const builtins = { generic: genericAdapter, appnexus: appnexusAdapter, pubmatic: pubmaticAdapter, openx: openxAdapter };
    const registry = createSyncerRegistry(
      syncingBidders(builtins, {
        mine: { adapter: 'generic', enabled: true, usersync: { cookie_family: 'minefam', redirect: { url: 'https://mine.example/s?r={{.RedirectURL}}', user_macro: '[UID]' } } },
        nx2: { adapter: 'appnexus', enabled: true },
        openx: { enabled: true, usersync: { support_cors: true } },
        off: { adapter: 'pubmatic', enabled: false },
        ['__proto__']: { adapter: 'generic', enabled: true },
      }),
      host,
    );
    assert.deepEqual(registry.families(), ['adnxs', 'minefam', 'openx', 'pubmatic']);
    assert.equal(registry.forBidder('appnexus')?.family, 'adnxs');
    assert.equal(registry.forBidder('AppNexus')?.family, 'adnxs');
    assert.equal(registry.forBidder('nx2'), registry.forBidder('appnexus'));
    assert.equal(registry.forBidder('off'), undefined);
    assert.equal(registry.forBidder('__proto__'), undefined);
    assert.equal(registry.forBidder('openx')?.supportCors, true);
    assert.equal(registry.isKnownFamily('adnxs'), true);
    assert.equal(registry.isKnownFamily('appnexus'), false);
    assert.equal(registry.isKnownFamily('constructor'), false);
    assert.deepEqual(registry.biddersWithSyncers(), ['appnexus', 'mine', 'nx2', 'openx', 'pubmatic']);
    assert.equal(
      registry.forBidder('appnexus')?.sync(['redirect'], { gdpr: '0', gdprConsent: '', usPrivacy: '', gpp: '', gppSid: '' })?.url,
      'https://ib.adnxs.com/getuid?https%3A%2F%2Fpbs.example.com%2Fsetuid%3Fbidder%3Dadnxs%26gdpr%3D0%26gdpr_consent%3D%26gpp%3D%26gpp_sid%3D%26f%3Di%26uid%3D%24UID',
    );
  });

  it('refuses one family with different endpoints', () => {
    assert.throws(
      () =>
        createSyncerRegistry(
          [
            { code: 'a', userSync: { key: 'k', redirect: { url: 'https://a/?r={{.RedirectURL}}', userMacro: '' } } },
            { code: 'b', userSync: { key: 'k', redirect: { url: 'https://b/?r={{.RedirectURL}}', userMacro: '' } } },
          ],
          host,
        ),
      /cookie family "k" is already used by a/,
    );
  });
});
