// Request data keyed by the names of Object.prototype's members: a bidder code, alias, legacy
// `imp.ext` key, currency code or price granularity named `constructor`, `toString` or
// `__proto__` is ordinary data. Each must get the answer any other unknown or aliased name gets,
// never a 5xx (they used to: `into[key].push is not a function` in the response's error lists),
// and `__proto__` must come back as a key of its own in the JSON.
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { request as httpRequest } from 'undici';
import type { TestApp } from '../support/app.js';
import { buildTestApp } from '../support/app.js';
import type { MockBidder } from '../support/mock-bidder.js';
import { startMockBidder } from '../support/mock-bidder.js';
import { ONE_VALID_ONE_STRAY_BID, PROTOTYPE_KEYS } from '../support/prototype-keys.js';

type Json = Record<string, unknown>;

/** An object with `key` as an own key, `__proto__` included (an object literal would set the prototype). */
const keyed = (key: string, value: unknown): Json => JSON.parse(`{${JSON.stringify(key)}:${JSON.stringify(value)}}`) as Json;

const banner = { format: [{ w: 300, h: 250 }] };
const auctionRequest = (imp: Json, prebid: Json = {}, extra: Json = {}): Json => ({
  id: 'auction-1',
  site: { page: 'https://news.example/a', publisher: { id: 'pub-1' } },
  imp: [{ id: 'imp-1', banner, ...imp }],
  tmax: 500,
  ext: { prebid },
  ...extra,
});

const droppedBid = (warnings: unknown): void => assert.match((warnings as { message: string }[])[0]!.message, /bid dropped/);

interface Answer {
  readonly status: number;
  readonly text: string;
  readonly json: Json;
}

const own = (obj: unknown, key: string): unknown => {
  assert.ok(typeof obj === 'object' && obj !== null, `expected an object, got ${JSON.stringify(obj)}`);
  assert.ok(Object.hasOwn(obj, key), `no own key ${JSON.stringify(key)} in ${JSON.stringify(obj)}`);
  return (obj as Json)[key];
};

describe('prototype member names as request keys on POST /openrtb2/auction', () => {
  let app: TestApp;
  let alpha: MockBidder;
  let base: string;

  before(async () => {
    alpha = await startMockBidder({ body: ONE_VALID_ONE_STRAY_BID });
    app = await buildTestApp({ adapters: { alpha: { adapter: 'generic', endpoint: alpha.url } } });
    base = await app.server.listen({ host: '127.0.0.1', port: 0 });
  });
  after(async () => {
    await app.close();
    await alpha.close();
  });

  const post = async (body: Json): Promise<Answer> => {
    // JSON.stringify keeps an own `__proto__` key (JSON.parse made it one), so it goes on the wire.
    const res = await httpRequest(`${base}/openrtb2/auction`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify(body) });
    const text = await res.body.text();
    assert.ok(res.statusCode < 500, `answered ${res.statusCode}: ${text.slice(0, 300)}`);
    return { status: res.statusCode, text, json: JSON.parse(text) as Json };
  };
  const extOf = (a: Answer): Json => a.json.ext as Json;
  /** The same POST, for answers that are not JSON (a 400's plain text). */
  const postText = async (body: Json): Promise<{ status: number; text: string }> => {
    const res = await httpRequest(`${base}/openrtb2/auction`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify(body) });
    return { status: res.statusCode, text: await res.body.text() };
  };

  for (const key of PROTOTYPE_KEYS) {
    it(`${key} as an unknown bidder code: a warning under its own key, the other bidder still bids`, async () => {
      const a = await post(auctionRequest({ ext: { prebid: { bidder: { ...keyed(key, {}), alpha: {} } } } }));
      assert.equal(a.status, 200);
      const warnings = own(extOf(a).warnings, key) as { message: string }[];
      assert.equal(warnings.length, 1);
      assert.match(warnings[0]!.message, /is not a known bidder/);
      assert.deepEqual((a.json.seatbid as { seat: string }[]).map((s) => s.seat), ['alpha']);
      assert.ok(a.text.includes(`"warnings":{${JSON.stringify(key)}:[`), a.text);
    });

    it(`${key} as a legacy imp.ext bidder key: a warning under its own key`, async () => {
      const a = await post(auctionRequest({ ext: keyed(key, { p: 1 }) }));
      assert.equal(a.status, 200);
      const warnings = own(extOf(a).warnings, key) as { message: string }[];
      assert.match(warnings[0]!.message, /is not a known bidder/);
    });

    it(`${key} as an alias of alpha: bids under its own code, with its own params, adjustment, warnings and response time`, async () => {
      const seen = alpha.received.length;
      const a = await post(
        auctionRequest(
          { ext: { prebid: { bidder: keyed(key, { p: 7 }) } } },
          { aliases: keyed(key, 'alpha'), bidadjustmentfactors: keyed(key, 0.5), bidderparams: keyed(key, { account: 'x' }), aliasgvlids: keyed(key, 10), targeting: {} },
        ),
      );
      assert.equal(a.status, 200);
      const seatbid = a.json.seatbid as { seat: string; bid: { price: number; ext: { prebid: { targeting: Json } } }[] }[];
      assert.deepEqual(seatbid.map((s) => s.seat), [key]);
      assert.equal(seatbid[0]!.bid[0]!.price, 1, 'the adjustment factor of the alias applies');
      assert.equal(typeof own(extOf(a).responsetimemillis, key), 'number');
      droppedBid(own(extOf(a).warnings, key));
      const sent = alpha.received.slice(seen).map((r) => JSON.parse(r.body) as { imp: { ext: Json }[]; ext: { prebid: Json } });
      assert.equal(sent.length, 1);
      assert.deepEqual(sent[0]!.imp[0]!.ext.bidder, { p: 7 });
      assert.deepEqual(sent[0]!.ext.prebid.bidderparams, { account: 'x' });
    });

    it(`${key} as a legacy imp.ext key aliased to alpha: bids under its own code`, async () => {
      const a = await post(auctionRequest({ ext: keyed(key, { p: 1 }) }, { aliases: keyed(key, 'alpha') }));
      assert.equal(a.status, 200);
      assert.deepEqual((a.json.seatbid as { seat: string }[]).map((s) => s.seat), [key]);
      droppedBid(own(extOf(a).warnings, key));
    });

    it(`${key} as a price granularity: a 400 naming it, as any name that is not a granularity`, async () => {
      const a = await postText(auctionRequest({ ext: { prebid: { bidder: { alpha: {} } } } }, { targeting: { pricegranularity: key, mediatypepricegranularity: { banner: key } } }));
      assert.equal(a.status, 400);
      assert.match(a.text, /request\.ext\.prebid\.targeting\.pricegranularity must be one of low, medium/);
      assert.match(a.text, /request\.ext\.prebid\.targeting\.mediatypepricegranularity\.banner must be one of/);
    });

  }

  it('rates that are not objects (null, a number) are a 400 naming them, not a 500', async () => {
    for (const [rates, where] of [[null, 'rates'], [5, 'rates'], [{ USD: null }, 'rates.USD'], [{ USD: 5 }, 'rates.USD']] as const) {
      const a = await postText(auctionRequest({ ext: { prebid: { bidder: { alpha: {} } } } }, { currency: { rates } }, { cur: ['EUR'] }));
      assert.equal(a.status, 400, JSON.stringify(rates));
      assert.ok(a.text.includes(`request.ext.prebid.currency.${where} must be a JSON object`), a.text);
    }
  });

  it('a debug auction lists the http calls of a bidder named __proto__ under its own key', async () => {
    const a = await post(auctionRequest({ ext: { prebid: { bidder: keyed('__proto__', {}) } } }, { aliases: keyed('__proto__', 'alpha') }, { test: 1 }));
    assert.equal(a.status, 200);
    const calls = own((extOf(a).debug as Json).httpcalls, '__proto__') as unknown[];
    assert.equal(calls.length, 1);
  });
});

describe('a bid with an own __proto__ key', () => {
  it('keeps it as a key of its own in the response, its price priced as any other', async () => {
    // The exchange copies each bid once to price it; the copy must not take `__proto__` as the prototype.
    const bid = '{"id":"b1","impid":"imp-1","price":1.5,"adm":"<div/>","crid":"c","w":300,"h":250,"mtype":1,"__proto__":{"polluted":true}}';
    const alpha = await startMockBidder({ body: `{"id":"auction-1","cur":"USD","seatbid":[{"bid":[${bid}]}]}` });
    const app = await buildTestApp({ adapters: { alpha: { adapter: 'generic', endpoint: alpha.url } } });
    try {
      const base = await app.server.listen({ host: '127.0.0.1', port: 0 });
      const body = JSON.stringify(auctionRequest({ ext: { prebid: { bidder: { alpha: {} } } } }));
      const res = await httpRequest(`${base}/openrtb2/auction`, { method: 'POST', headers: { 'content-type': 'application/json' }, body });
      const json = (await res.body.json()) as Json;
      const got = ((json.seatbid as Json[])[0]!.bid as Json[])[0]!;
      assert.deepEqual(own(got, '__proto__'), { polluted: true });
      assert.equal(got.price, 1.5);
      assert.equal((got as { polluted?: unknown }).polluted, undefined);
    } finally {
      await app.close();
      await alpha.close();
    }
  });
});
