import assert from 'node:assert/strict';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { describe, it } from 'node:test';
import { decodeUidsCookie, encodeUidsCookie, EMPTY_UIDS_COOKIE, withUid } from '../../src/usersync/uids-cookie.js';
import { buildTestApp } from '../support/app.js';

// /optout, as Prebid Server's: a non-empty `optout` sets the cookie's flag and drops every id, an
// empty one clears it; a reCAPTCHA when a secret is configured; without one, only this server's
// own pages may opt a user back in.

const form = { 'content-type': 'application/x-www-form-urlencoded' };
const cookieOf = (setCookie: unknown): string => {
  const value = /^uids=([^;]*);/.exec(String(setCookie))?.[1];
  assert.ok(value !== undefined, String(setCookie));
  return value;
};
const synced = encodeUidsCookie(withUid(EMPTY_UIDS_COOKIE, 'appnexus', 'u-1', Date.now()));

describe('/optout', () => {
  it('opting out sets the flag and drops the ids: /setuid then answers 401 and /getuids nothing', async () => {
    const app = await buildTestApp();
    try {
      const out = await app.server.inject({ method: 'POST', url: '/optout', headers: { ...form, cookie: `uids=${synced}`, origin: 'https://elsewhere.example' }, payload: 'optout=true' });
      assert.equal(out.statusCode, 200, out.body);
      const cookie = decodeUidsCookie(cookieOf(out.headers['set-cookie']));
      assert.deepEqual([cookie.optOut, cookie.uids.size], [true, 0]);
      assert.match(String(out.headers['set-cookie']), /; Secure; SameSite=None$/);
      const setuid = await app.server.inject({ method: 'GET', url: '/setuid?bidder=adnxs&uid=x', headers: { cookie: `uids=${cookieOf(out.headers['set-cookie'])}` } });
      assert.equal(setuid.statusCode, 401);
      const getuids = await app.server.inject({ method: 'GET', url: '/getuids', headers: { cookie: `uids=${cookieOf(out.headers['set-cookie'])}` } });
      assert.deepEqual(JSON.parse(getuids.body), {});
    } finally {
      await app.close();
    }
  });

  it("without a captcha, opting back in only from this server's own origin; then the flag is cleared", async () => {
    const app = await buildTestApp({ server: { external_url: 'https://openbid.example' }, host_cookie: { opt_in_url: 'https://publisher.example/privacy?in=1' } });
    try {
      const optedOut = encodeUidsCookie({ uids: new Map(), optOut: true });
      const foreign = await app.server.inject({ method: 'POST', url: '/optout', headers: { ...form, cookie: `uids=${optedOut}`, origin: 'https://evil.example' }, payload: 'optout=' });
      assert.equal(foreign.statusCode, 403);
      assert.equal(foreign.headers['set-cookie'], undefined);
      const noSource = await app.server.inject({ method: 'GET', url: '/optout', headers: { cookie: `uids=${optedOut}` } });
      assert.equal(noSource.statusCode, 403);
      const own = await app.server.inject({ method: 'POST', url: '/optout', headers: { ...form, cookie: `uids=${optedOut}`, referer: 'https://openbid.example/static/optout.html' }, payload: '' });
      assert.equal(own.statusCode, 301);
      assert.equal(own.headers.location, 'https://publisher.example/privacy?in=1');
      assert.equal(decodeUidsCookie(cookieOf(own.headers['set-cookie'])).optOut, false);
    } finally {
      await app.close();
    }
  });

  it('with a reCAPTCHA secret, the answer must verify: 400 without one, 401 when refused or the check fails', async () => {
    let accept = false;
    const posted: string[] = [];
    const verifier = createServer((req, res) => {
      let body = '';
      req.on('data', (c: Buffer) => (body += c.toString()));
      req.on('end', () => {
        posted.push(body);
        res.writeHead(200, { 'content-type': 'application/json' }).end(JSON.stringify({ success: accept }));
      });
    });
    await new Promise<void>((resolve) => verifier.listen(0, '127.0.0.1', resolve));
    const verifyUrl = `http://127.0.0.1:${(verifier.address() as AddressInfo).port}/siteverify`;
    const app = await buildTestApp({ user_sync: { recaptcha: { secret: 's3cret', verify_url: verifyUrl, timeout_ms: 1000 } }, host_cookie: { opt_out_url: 'https://publisher.example/out' } });
    try {
      const post = (payload: string) => app.server.inject({ method: 'POST', url: '/optout', headers: form, payload });
      assert.equal((await post('optout=1')).statusCode, 400);
      const refused = await post('optout=1&g-recaptcha-response=r-1');
      assert.equal(refused.statusCode, 401);
      assert.equal(refused.headers['set-cookie'], undefined);
      assert.deepEqual(Object.fromEntries(new URLSearchParams(posted[0])), { secret: 's3cret', response: 'r-1' });
      accept = true;
      const ok = await post('optout=1&g-recaptcha-response=r-2');
      assert.equal(ok.statusCode, 301);
      assert.equal(ok.headers.location, 'https://publisher.example/out');
      assert.equal(decodeUidsCookie(cookieOf(ok.headers['set-cookie'])).optOut, true);
      await new Promise<void>((resolve) => verifier.close(() => resolve()));
      assert.equal((await post('optout=1&g-recaptcha-response=r-3')).statusCode, 401, 'a verifier that cannot be reached refuses');
    } finally {
      await app.close();
      verifier.close();
    }
  });
});
