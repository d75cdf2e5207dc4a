import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { request } from 'undici';
import { buildTestApp } from '../support/app.js';
import type { TestApp } from '../support/app.js';
import { startMockBidder } from '../support/mock-bidder.js';
import { waitFor } from '../support/ports.js';
import type { MockBidder } from '../support/mock-bidder.js';

/*
 * Server currency rates from a URL, end to end: a rates server and a bidder answering in EUR, both
 * real HTTP servers on 127.0.0.1, and the app between them refreshing every second.
 */

const HOUR = 3_600_000;
const ratesDoc = (usdToEur: number) => ({ dataAsOf: '2024-03-01', generatedAt: '2024-03-02T04:00:00.000Z', conversions: { USD: { EUR: usdToEur, GBP: 0.5 } } });

let ratesServer: MockBidder;
let bidder: MockBidder;
let app: TestApp;
let base = '';
/** The app's clock runs this far ahead of the real one: how the test makes rates old. */
let clockOffsetMs = 0;

before(async () => {
  ratesServer = await startMockBidder({ body: ratesDoc(0.5) });
  bidder = await startMockBidder({
    body: { id: 'resp', cur: 'EUR', seatbid: [{ bid: [{ id: 'a1', impid: 'imp-1', price: 2, adm: '<div/>', crid: 'cr', w: 300, h: 250 }] }] },
  });
  app = await buildTestApp(
    {
      auction: { currency: { url: `${ratesServer.url}latest.json`, refresh_interval_ms: 1000, stale_after_ms: 24 * HOUR } },
      adapters: { alpha: { adapter: 'generic', endpoint: bidder.url } },
    },
    { clock: { now: () => Date.now() + clockOffsetMs } },
  );
  base = await app.server.listen({ host: '127.0.0.1', port: 0 });
});
after(async () => {
  await app.close();
  await Promise.all([ratesServer.close(), bidder.close()]);
});

interface AuctionAnswer {
  seatbid?: { bid: { price: number }[] }[];
  ext?: { errors?: Record<string, { message: string }[]> };
}

/** An auction in USD; the bidder answers 2.00 EUR. */
const auction = async (): Promise<AuctionAnswer> => {
  const res = await request(`${base}/openrtb2/auction`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ id: 'a', site: { page: 'https://news.example/' }, imp: [{ id: 'imp-1', banner: { format: [{ w: 300, h: 250 }] }, ext: { prebid: { bidder: { alpha: {} } } } }], tmax: 500 }),
  });
  assert.equal(res.statusCode, 200);
  return (await res.body.json()) as AuctionAnswer;
};
const priceOf = (answer: AuctionAnswer): number | undefined => answer.seatbid?.[0]?.bid[0]?.price;

const metricsText = async (): Promise<string> => (await app.metrics.render()).body;

/** Reads of the rates the app has finished (and applied or refused), from its metrics. */
const refreshesDone = async (): Promise<number> =>
  [...(await metricsText()).matchAll(/^openbid_currency_rates_refreshes_total\{[^}]*\} (\d+)$/gm)].reduce((sum, m) => sum + Number(m[1]), 0);

/**
 * Waits until a read of the rates that began after this call has finished: `n` reads more than
 * now, plus one, since a read already under way may have been answered as before.
 */
const nextFetches = async (n: number): Promise<void> => {
  const until = (await refreshesDone()) + n + 1;
  await waitFor(`${n} more reads of the rates`, async () => (await refreshesDone()) >= until, 5000);
};

describe('server currency rates from a URL', () => {
  it('fetches the rates at start: a EUR bid is priced in USD with them', async () => {
    // One read at start (a slow start may already have seen the next refresh).
    assert.ok(ratesServer.received.length >= 1);
    assert.equal(ratesServer.received[0]?.url, '/latest.json');
    assert.equal(priceOf(await auction()), 4);
    assert.match(await metricsText(), /openbid_currency_rates_available 1\n/);
  });

  it('picks up changed rates at the next refresh', async () => {
    ratesServer.answerWith({ body: ratesDoc(0.25) });
    await nextFetches(1);
    assert.equal(priceOf(await auction()), 8);
  });

  it('keeps the last good rates when the URL fails or answers something that is not a rates document', async () => {
    ratesServer.answerWith({ status: 500, body: 'down' });
    await nextFetches(1);
    assert.equal(priceOf(await auction()), 8);
    ratesServer.answerWith({ body: '{"conversions": {"USD": {"EUR": "cheap"}}}' });
    await nextFetches(1);
    assert.equal(priceOf(await auction()), 8);
    const text = await metricsText();
    assert.match(text, /openbid_currency_rates_refreshes_total\{result="unreadable"\} [1-9]/);
    assert.match(text, /openbid_currency_rates_refreshes_total\{result="invalid"\} [1-9]/);
  });

  it('drops rates older than stale_after_ms: the EUR bid then fails cleanly', async () => {
    clockOffsetMs = 25 * HOUR;
    const answer = await auction();
    assert.equal(priceOf(answer), undefined);
    assert.deepEqual(
      answer.ext?.errors?.alpha?.map((e) => e.message),
      [`Bid "a1": Currency conversion rate not found: 'EUR' => 'USD'`],
    );
    assert.match(await metricsText(), /openbid_currency_rates_available 0\n/);
  });

  it('uses rates again once a refresh succeeds', async () => {
    ratesServer.answerWith({ body: ratesDoc(0.5) });
    await nextFetches(1);
    assert.equal(priceOf(await auction()), 4);
    assert.match(await metricsText(), /openbid_currency_rates_available 1\n/);
  });
});
