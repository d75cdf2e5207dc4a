// Property: names of Object.prototype's members (`constructor`, `toString`, `__proto__`...) put
// anywhere the auction or AMP keys something by request data (bidder codes, legacy imp.ext keys,
// aliases and their targets, bidderparams, bidadjustmentfactors, aliasgvlids, currency codes,
// price granularity and targeting prefix, AMP's account and targeting) never get a 5xx, and every
// bidder the request names is accounted for under its own key. Fixed seed and run count, so CI
// runs the same cases every time; a failure prints the smallest request that still fails.
import assert from 'node:assert/strict';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import fc from 'fast-check';
import { request as httpRequest } from 'undici';
import type { TestApp } from '../support/app.js';
import { buildTestApp } from '../support/app.js';
import { tcfString, VENDOR_LIST_FILE } from '../support/consent-strings.js';
import type { MockBidder } from '../support/mock-bidder.js';
import { startMockBidder } from '../support/mock-bidder.js';
import { ONE_VALID_ONE_STRAY_BID, PROTOTYPE_KEYS } from '../support/prototype-keys.js';
import { isObject } from '../../src/core/json-object.js';

const SEED = 20261124;
const RUNS = 80;

type Json = Record<string, unknown>;

const protoKey = fc.constantFrom(...PROTOTYPE_KEYS);
/** Mostly prototype names, sometimes the configured bidder or an unknown ordinary one. */
const code = fc.oneof({ weight: 4, arbitrary: protoKey }, { weight: 1, arbitrary: fc.constantFrom('alpha', 'beta') });

/** An object of the entries; `Object.fromEntries` makes even `__proto__` an own key, as JSON.parse does. */
const record = <V>(value: fc.Arbitrary<V>) => fc.array(fc.tuple(code, value), { maxLength: 3 }).map((entries) => Object.fromEntries(entries) as Json);

interface Plan {
  readonly bidders: string[];
  readonly legacy: boolean;
  readonly params: unknown;
  readonly prebid: Json;
  readonly extra: Json;
}

const plan: fc.Arbitrary<Plan> = fc.record({
  bidders: fc.uniqueArray(code, { minLength: 1, maxLength: 3 }),
  legacy: fc.boolean(),
  params: fc.oneof(fc.constant({}), record(fc.integer())),
  prebid: fc.record(
    {
      aliases: record(fc.oneof(fc.constant('alpha'), code)),
      bidderparams: record(fc.oneof(fc.constant({ x: 1 }), protoKey)),
      bidadjustmentfactors: record(fc.oneof(fc.double({ min: 0, max: 2, noNaN: true }), protoKey)),
      aliasgvlids: record(fc.constantFrom(10, 20, 999)),
      currency: fc.record({ rates: fc.oneof(record(record(fc.double({ min: 0.1, max: 3, noNaN: true }))), fc.constantFrom(null, 5)) }),
      targeting: fc.record(
        {
          pricegranularity: fc.oneof(protoKey, fc.constant('dense')),
          mediatypepricegranularity: record(protoKey),
          prefix: protoKey,
        },
        { requiredKeys: [] },
      ),
    },
    { requiredKeys: [] },
  ),
  extra: fc.record(
    {
      cur: fc.constant(['EUR']),
      test: fc.constant(1),
      // GDPR applies with a consent for vendor 10 only: `aliasgvlids` decides which bidders may bid.
      regs: fc.constant({ gdpr: 1 }),
      user: fc.constant({ consent: tcfString({ purposes: [1, 2, 4], vendors: [10] }) }),
    },
    { requiredKeys: [] },
  ),
});

const imp = (p: Plan): Json => {
  const bidders = Object.fromEntries(p.bidders.map((c) => [c, p.params]));
  return { id: 'imp-1', banner: { format: [{ w: 300, h: 250 }] }, ext: p.legacy ? bidders : { prebid: { bidder: bidders } } };
};

const requestOf = (p: Plan): Json => ({
  id: 'auction-1',
  site: { page: 'https://news.example/a', publisher: { id: 'pub-1' } },
  imp: [imp(p)],
  tmax: 300,
  ext: { prebid: p.prebid },
  ...p.extra,
});

describe('prototype member names wherever the auction keys request data', () => {
  let app: TestApp;
  let alpha: MockBidder;
  let base: string;
  let storedDir: string;
  let nextTag = 0;

  before(async () => {
    storedDir = mkdtempSync(join(tmpdir(), 'openbid-proto-keys-'));
    alpha = await startMockBidder({ body: ONE_VALID_ONE_STRAY_BID });
    app = await buildTestApp({
      adapters: { alpha: { adapter: 'generic', endpoint: alpha.url } },
      stored_requests: { filesystem: { directory: storedDir } },
      privacy: { gdpr: { vendor_exceptions: ['constructor', '__proto__'], vendor_list: { file: VENDOR_LIST_FILE } } },
      auction: { default_timeout_ms: 300 },
    });
    base = await app.server.listen({ host: '127.0.0.1', port: 0 });
  });
  after(async () => {
    await app.close();
    await alpha.close();
    rmSync(storedDir, { recursive: true, force: true });
  });

  it('POST /openrtb2/auction: never a 5xx; every bidder named is under its own key in ext', async () => {
    await fc.assert(
      fc.asyncProperty(plan, async (p) => {
        const res = await httpRequest(`${base}/openrtb2/auction`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify(requestOf(p)) });
        const text = await res.body.text();
        assert.ok(res.statusCode < 500, `answered ${res.statusCode}: ${text.slice(0, 300)}`);
        if (res.statusCode !== 200) return;
        const answer = JSON.parse(text) as Json;
        assert.equal(answer.id, 'auction-1');
        assert.ok(isObject(answer.ext), text.slice(0, 300));
        const { responsetimemillis, warnings, errors } = answer.ext;
        // Each bidder was called (a response time), refused (a warning) or had bad params (an error).
        for (const c of p.bidders) {
          const accounted = [responsetimemillis, warnings, errors].some((r) => isObject(r) && Object.hasOwn(r, c));
          assert.ok(accounted, `bidder ${JSON.stringify(c)} is not in ext: ${text.slice(0, 600)}`);
        }
      }),
      { seed: SEED, numRuns: RUNS, endOnFailure: true },
    );
  });

  it('GET /openrtb2/amp: a stored request naming such bidders, and such keys in the query, never get a 5xx', async () => {
    const query = fc.record(
      {
        account: protoKey,
        slot: protoKey,
        targeting: record(fc.oneof(fc.string({ maxLength: 5 }), protoKey)).map((t) => JSON.stringify(t)),
        debug: fc.constant('1'),
      },
      { requiredKeys: [] },
    );
    await fc.assert(
      fc.asyncProperty(plan, query, async (p, q) => {
        const tag = `proto-${nextTag++}`;
        const { tmax: _tmax, ...stored } = requestOf(p);
        writeFileSync(join(storedDir, `${tag}.json`), JSON.stringify(stored));
        const params = new URLSearchParams({ tag_id: tag, ...q });
        const res = await httpRequest(`${base}/openrtb2/amp?${params.toString()}`);
        const text = await res.body.text();
        assert.ok(res.statusCode < 500, `answered ${res.statusCode}: ${text.slice(0, 300)}`);
        if (res.statusCode !== 200) return;
        const answer = JSON.parse(text) as Json;
        assert.ok(isObject(answer.targeting), text.slice(0, 300));
        if (answer.errors !== undefined) assert.ok(isObject(answer.errors), text.slice(0, 300));
      }),
      { seed: SEED, numRuns: RUNS, endOnFailure: true },
    );
  });
});
