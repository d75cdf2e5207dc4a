import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { AppError, ErrorCode } from '../core/app-error.js';
import type { UserSyncPrivacy } from '../privacy/user-sync.js';
import type { Account } from '../stored/account.js';
import { InvalidStoredData } from '../stored/errors.js';
import { createSetuidService } from './setuid.js';
import type { SetuidOptions } from './setuid.js';
import type { SetuidReason } from './setuid-metrics.js';
import { decodeUidsCookie, encodeUidsCookie } from './uids-cookie.js';

const NOW = Date.parse('2025-06-01T00:00:00Z');
const allowAll: UserSyncPrivacy = {
  syncUserAllowed: () => true,
  hostCookie: () => ({ kind: 'allowed' }),
  decodeGpp: () => ({ error: 'no gpp here' }),
};

const service = (o: Partial<SetuidOptions> = {}) => {
  const recorded: [string, SetuidReason][] = [];
  const s = createSetuidService({
    familyOf: (f) => (['pubmatic', 'audienceNetwork', 'adnxs'].includes(f) ? f : undefined),
    resolveAccount: (id) => ({ id }) as unknown as Account,
    privacy: allowAll,
    cookie: { domain: '', ttlDays: 90, maxCookieSizeBytes: 0 },
    optOutCookie: { name: '', value: '' },
    clock: { now: () => NOW },
    metrics: { result: (family, reason) => recorded.push([family, reason]) },
    ...o,
  });
  const run = (query: string, cookie?: string) => {
    const p = new URLSearchParams(query);
    return s.handle((n) => p.get(n) ?? undefined, cookie);
  };
  return { run, recorded };
};
const uidsOf = (setCookie: string | undefined) => {
  const value = /^uids=([^;]*)/.exec(setCookie ?? '')?.[1];
  return Object.fromEntries([...decodeUidsCookie(value).uids].map(([f, e]) => [f, e.uid]));
};
const cookie = (ids: Record<string, string>) => `uids=${encodeUidsCookie({ uids: new Map(Object.entries(ids).map(([f, uid]) => [f, { uid, expiresAt: NOW + 1000 }])), optOut: false })}`;

describe('setuid service', () => {
  it('Audience Network 0 ("not yet recognised") is not stored; the cookie is written back as read', async () => {
    const { run, recorded } = service();
    const out = await run('bidder=audienceNetwork&uid=0', cookie({ pubmatic: 'p' }));
    assert.equal(out.status, 200);
    assert.deepEqual(uidsOf(out.setCookie), { pubmatic: 'p' });
    assert.deepEqual(recorded, [['audienceNetwork', 'ignored']]);
    assert.deepEqual(uidsOf((await run('bidder=audienceNetwork&uid=7')).setCookie), { audienceNetwork: '7' });
  });

  it('without f: the family default format, else b', async () => {
    assert.equal((await service().run('bidder=pubmatic&uid=1')).format, 'b');
    assert.equal((await service({ defaultFormatOf: () => 'i' }).run('bidder=pubmatic&uid=1')).format, 'i');
    assert.equal((await service({ defaultFormatOf: () => 'i' }).run('bidder=pubmatic&uid=1&f=b')).format, 'b');
  });

  it('accounts: unknown where required and invalid stored settings are 400s; a failing source rejects', async () => {
    const unknown = service({
      resolveAccount: () => {
        throw new AppError(ErrorCode.UNAUTHORIZED, 'Unauthorized account id: x');
      },
    });
    const out = await unknown.run('bidder=pubmatic&uid=1&account=x');
    assert.deepEqual([out.status, out.reason, out.message], [400, 'account_refused', 'account must be valid if provided, please reach out to the prebid server host']);
    const invalid = service({ resolveAccount: () => Promise.reject(new InvalidStoredData('bad')) });
    assert.equal((await invalid.run('bidder=pubmatic&uid=1&account=x')).message, 'account config is malformed and could not be read');
    const down = service({ resolveAccount: () => Promise.reject(new AppError(ErrorCode.BACKEND_FAILURE, 'postgres: down')) });
    await assert.rejects(down.run('bidder=pubmatic&uid=1&account=x'), /postgres: down/);
  });

  it('the activity is asked with the bidder as the request names it, the GPP ids and the account privacy', async () => {
    const asked: unknown[] = [];
    const privacy: UserSyncPrivacy = { ...allowAll, syncUserAllowed: (b, sids, acct) => (asked.push([b, sids, acct]), false) };
    const acct = { id: 'a', privacy: { ccpa: { enabled: true } } } as unknown as Account;
    const out = await service({ privacy, resolveAccount: () => acct }).run('bidder=PubMatic&uid=1&gpp_sid=7,8&account=a');
    assert.deepEqual([out.status, out.reason, out.message], [451, 'privacy', undefined]);
    assert.deepEqual(asked, [['PubMatic', [7, 8], acct.privacy]]);
  });

  it('a host cookie verdict that waits (vendor list on first use) is awaited', async () => {
    const privacy: UserSyncPrivacy = { ...allowAll, hostCookie: () => Promise.resolve({ kind: 'denied' }) };
    const out = await service({ privacy }).run('bidder=pubmatic&uid=1&gdpr=1&gdpr_consent=c');
    assert.deepEqual([out.status, out.message], [451, 'The gdpr_consent string prevents cookies from being saved']);
  });

  it('records one result per request, under the family or "unknown"', async () => {
    const { run, recorded } = service({ optOutCookie: { name: 'out', value: '1' } });
    await run('bidder=pubmatic&uid=1');
    await run('bidder=pubmatic');
    await run('bidder=zzz&uid=1');
    await run('uid=1');
    await run('bidder=pubmatic&uid=1', 'out=1');
    await run('bidder=pubmatic&uid=1&f=q');
    assert.deepEqual(recorded, [
      ['pubmatic', 'ok'],
      ['pubmatic', 'cleared'],
      ['unknown', 'unknown_bidder'],
      ['unknown', 'unknown_bidder'],
      ['pubmatic', 'opted_out'],
      ['pubmatic', 'bad_request'],
    ]);
  });

  it('a family named like an Object member is an ordinary family', async () => {
    const { run } = service({ familyOf: (f) => (f === '__proto__' || f === 'constructor' ? f : undefined) });
    assert.deepEqual(uidsOf((await run('bidder=__proto__&uid=1', cookie({ constructor: 'c' }))).setCookie), JSON.parse('{"__proto__":"1","constructor":"c"}'));
  });
});
