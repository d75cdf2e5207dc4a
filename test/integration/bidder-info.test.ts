import assert from 'node:assert/strict';
import type { AddressInfo } from 'node:net';
import { after, before, describe, it } from 'node:test';
import { BUILTIN_ADAPTERS } from '../../src/bidders/builtin.js';
import { buildTestApp } from '../support/app.js';
import type { TestApp } from '../support/app.js';

/**
 * GET /info/bidders, /info/bidders/<name> and /bidders/params through the whole app, as Prebid
 * Server answers them (endpoints/info/bidders*_test.go): a configured generic bidder and a
 * configured code running appnexus's adapter count as aliases, `enabled: false` as disabled.
 */
let app: TestApp;
before(async () => {
  app = await buildTestApp({
    adapters: {
      mybidder: { adapter: 'generic', endpoint: 'http://127.0.0.1:1/bid' },
      appnexus2: { adapter: 'appnexus', enabled: false },
      openx: { enabled: false },
    },
  });
});
after(() => app.close());

const get = (url: string) => app.server.inject({ method: 'GET', url });

/** Codes whose presence each list decides; others (built-ins added later) are only checked for being known. */
const EXPECTED: Record<string, Record<string, boolean>> = {
  '': { appnexus: true, appnexus2: true, mybidder: true, openx: true, pubmatic: true, generic: false },
  'enabledonly=false&baseadaptersonly=false': { appnexus: true, appnexus2: true, mybidder: true, openx: true, pubmatic: true, generic: false },
  'baseadaptersonly=true': { appnexus: true, appnexus2: false, mybidder: false, openx: true, pubmatic: true, generic: false },
  'enabledonly=false&baseadaptersonly=true': { appnexus: true, appnexus2: false, mybidder: false, openx: true, pubmatic: true, generic: false },
  'enabledonly=true': { appnexus: true, appnexus2: false, mybidder: true, openx: false, pubmatic: true, generic: false },
  'enabledonly=TRUE&baseadaptersonly=False': { appnexus: true, appnexus2: false, mybidder: true, openx: false, pubmatic: true, generic: false },
  'enabledonly=true&baseadaptersonly=true': { appnexus: true, appnexus2: false, mybidder: false, openx: false, pubmatic: true, generic: false },
  'baseadaptersonly=true&enabledonly=true&enabledonly=bad': { appnexus: true, appnexus2: false, mybidder: false, openx: false, pubmatic: true, generic: false },
};

const APPNEXUS_DETAIL =
  '{"status":"ACTIVE","usesHttps":false,"maintainer":{"email":"prebid@microsoft.com"},"capabilities":{"app":{"mediaTypes":["banner","video","native"]},"site":{"mediaTypes":["banner","video","native"]}}}';

describe('GET /info/bidders', () => {
  for (const [query, expected] of Object.entries(EXPECTED)) {
    it(`?${query}: sorted codes, aliases and disabled bidders as Prebid Server counts them`, async () => {
      const res = await get(`/info/bidders${query === '' ? '' : `?${query}`}`);
      assert.equal(res.statusCode, 200);
      assert.match(String(res.headers['content-type']), /^application\/json/);
      const codes = res.json<string[]>();
      assert.deepEqual(codes, [...codes].sort());
      for (const [code, present] of Object.entries(expected)) assert.equal(codes.includes(code), present, code);
      for (const code of codes) assert.ok(Object.hasOwn(BUILTIN_ADAPTERS, code) || code in app.config.adapters, code);
    });
  }

  for (const [query, message] of [
    ['enabledonly=yes', "Invalid value for 'enabledonly' query param, must be of boolean type"],
    ['enabledonly=', "Invalid value for 'enabledonly' query param, must be of boolean type"],
    ['enabledonly=1&baseadaptersonly=nope', "Invalid value for 'enabledonly' query param, must be of boolean type"],
    ['baseadaptersonly=1', "Invalid value for 'baseadaptersonly' query param, must be of boolean type"],
    ['enabledonly=true&baseadaptersonly', "Invalid value for 'baseadaptersonly' query param, must be of boolean type"],
  ]) {
    it(`?${query}: 400 with Prebid Server's message`, async () => {
      const res = await get(`/info/bidders?${query}`);
      assert.equal(res.statusCode, 400);
      assert.equal(res.body, message);
    });
  }
});

describe('GET /info/bidders/<name>', () => {
  const cases: [string, string][] = [
    ['appnexus', APPNEXUS_DETAIL],
    ['AppNexus', APPNEXUS_DETAIL],
    [
      'pubmatic',
      '{"status":"ACTIVE","usesHttps":true,"maintainer":{"email":"header-bidding@pubmatic.com"},"capabilities":{"app":{"mediaTypes":["banner","video","native"]},"site":{"mediaTypes":["banner","video","native"]}}}',
    ],
    // Configured off: no endpoint facts, as Prebid Server's DISABLED details.
    ['openx', '{"status":"DISABLED","maintainer":{"email":"prebid@openx.com"}}'],
    ['appnexus2', '{"status":"DISABLED","maintainer":{"email":"prebid@microsoft.com"},"aliasOf":"appnexus"}'],
    [
      'mybidder',
      '{"status":"ACTIVE","usesHttps":false,"capabilities":{"app":{"mediaTypes":["banner","video","audio","native"]},"site":{"mediaTypes":["banner","video","audio","native"]},"dooh":{"mediaTypes":["banner","video","audio","native"]}},"aliasOf":"generic"}',
    ],
  ];
  for (const [name, body] of cases) {
    it(`${name}: its details, keys in Prebid Server's order`, async () => {
      const res = await get(`/info/bidders/${name}`);
      assert.equal(res.statusCode, 200);
      assert.match(String(res.headers['content-type']), /^application\/json/);
      assert.equal(res.body, body);
    });
  }

  for (const name of ['all', 'ALL']) {
    it(`${name}: every listed bidder's details by code`, async () => {
      const res = await get(`/info/bidders/${name}`);
      assert.equal(res.statusCode, 200);
      const all = res.json<Record<string, unknown>>();
      const listed = (await get('/info/bidders')).json<string[]>();
      assert.deepEqual(Object.keys(all), listed);
      assert.deepEqual(all.appnexus, JSON.parse(APPNEXUS_DETAIL));
      assert.deepEqual(all.appnexus2, { status: 'DISABLED', maintainer: { email: 'prebid@microsoft.com' }, aliasOf: 'appnexus' });
    });
  }

  for (const name of ['doesntExist', 'generic', '__proto__', 'constructor', '%20']) {
    it(`${name}: 404 with an empty body`, async () => {
      const res = await get(`/info/bidders/${name}`);
      assert.equal(res.statusCode, 404);
      assert.equal(res.body, '');
    });
  }
});

describe('GET /bidders/params', () => {
  it("every listed bidder's params JSON Schema by code, an alias with its adapter's", async () => {
    const res = await get('/bidders/params');
    assert.equal(res.statusCode, 200);
    assert.match(String(res.headers['content-type']), /^application\/json/);
    const schemas = res.json<Record<string, { type?: string; required?: string[]; additionalProperties?: boolean }>>();
    const listed = (await get('/info/bidders')).json<string[]>();
    assert.deepEqual(Object.keys(schemas), listed);
    assert.deepEqual(schemas.pubmatic?.required, ['publisherId']);
    assert.deepEqual(schemas.openx?.required, ['unit']);
    assert.deepEqual(schemas.appnexus2, schemas.appnexus);
    assert.deepEqual(schemas.mybidder, { type: 'object', properties: {}, additionalProperties: true });
  });
});

describe('on a real socket (the lanes serve /info/bidders and /bidders/params)', () => {
  it('answers as Fastify does', async () => {
    await app.server.listen({ port: 0, host: '127.0.0.1' });
    const { port } = app.server.server.address() as AddressInfo;
    const base = `http://127.0.0.1:${port}`;
    const bad = await fetch(`${base}/info/bidders?baseadaptersonly=maybe`, { signal: AbortSignal.timeout(5000) });
    assert.equal(bad.status, 400);
    assert.equal(await bad.text(), "Invalid value for 'baseadaptersonly' query param, must be of boolean type");
    const list = await fetch(`${base}/info/bidders?enabledonly=true&baseadaptersonly=true`, { signal: AbortSignal.timeout(5000) });
    assert.equal(list.status, 200);
    assert.equal(await list.text(), (await get('/info/bidders?enabledonly=true&baseadaptersonly=true')).body);
    const params = await fetch(`${base}/bidders/params`, { signal: AbortSignal.timeout(5000) });
    assert.equal(await params.text(), (await get('/bidders/params')).body);
    const detail = await fetch(`${base}/info/bidders/APPNEXUS`, { signal: AbortSignal.timeout(5000) });
    assert.equal(await detail.text(), APPNEXUS_DETAIL);
  });
});
