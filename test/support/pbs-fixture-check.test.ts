import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, describe, it } from 'node:test';
import type { AdapterModule } from '../../src/bidders/adapter.js';
import { BUILTIN_ADAPTERS } from '../../src/bidders/builtin.js';
import type { AdapterFixture } from './adapter-fixtures.js';
import { bidAsGoJson, checkPbsFixture } from './pbs-fixture-check.js';
import type { PbsFixture } from './pbs-fixture-check.js';

/**
 * One of our adapter fixtures written in Prebid Server's format, as a Go adapter test would have
 * it: the checker must agree with our own runner on every one of them. Headers are left out (ours
 * lists some, Prebid Server's all); a non-200 answer expects one error of any wording (the
 * exchange's) at its place.
 */
const asPbs = (ours: AdapterFixture): PbsFixture => {
  const calls = ours.calls ?? [];
  const statusErrors = calls.filter((c) => c.response.status !== 200 && c.response.status !== 204).map(() => ({ value: '', comparison: 'regex' as const }));
  const literal = (e: { message?: string; messagePattern?: string }) =>
    e.message !== undefined ? { value: e.message, comparison: 'literal' as const } : { value: e.messagePattern ?? '', comparison: 'regex' as const };
  return {
    mockBidRequest: ours.request,
    httpCalls: calls.map((c) => ({
      expectedRequest: { uri: c.expectedRequest.uri, ...(c.expectedRequest.body !== undefined ? { body: c.expectedRequest.body } : {}), ...(c.expectedRequest.impIds ? { impIDs: [...c.expectedRequest.impIds] } : {}) },
      mockResponse: { status: c.response.status, ...(c.response.body !== undefined ? { body: c.response.body } : {}) },
    })),
    expectedBidResponses: (ours.expectedBids ?? []).map((answer) => ({
      currency: answer.currency,
      bids: answer.bids.map((raw) => {
        const b = raw as { bid: unknown; type: string; seat?: string; video?: { duration?: number; primaryCategory?: string } };
        return { bid: bidAsGoJson(b.bid), type: b.type, seat: b.seat ?? '', ...(b.video ? { video: { duration: b.video.duration ?? 0, primary_category: b.video.primaryCategory ?? '' } } : {}) };
      }),
      ...(answer.fledgeAuctionConfigs ? { fledgeauctionconfigs: answer.fledgeAuctionConfigs.map((c) => { const { impId, config } = c as { impId: string; config: unknown }; return { impid: impId, config }; }) } : {}),
    })),
    expectedMakeRequestsErrors: (ours.expectedRequestErrors ?? []).map(literal),
    // Our runner lists adapter errors only: fixtures with both kinds are left out (their order is not ours to know).
    expectedMakeBidsErrors: [...statusErrors, ...(ours.expectedBidErrors ?? []).map(literal)],
  };
};

const fixturesOf = (bidder: string): { file: string; fixture: AdapterFixture }[] => {
  const dir = join('src/bidders', bidder, 'fixtures');
  return readdirSync(dir, { recursive: true })
    .map(String)
    .filter((f) => f.endsWith('.json') && statSync(join(dir, f)).isFile())
    .map((f) => ({ file: f, fixture: JSON.parse(readFileSync(join(dir, f), 'utf8')) as AdapterFixture }));
};

const optionsFor = (module: AdapterModule, f: AdapterFixture) => ({
  endpoint: f.endpoint ?? module.info.endpoint,
  bidderCode: f.bidderCode ?? 'bidder',
  entryPoint: f.entryPoint ?? 'auction',
  host: { externalUrl: 'http://localhost:8000', ...f.host },
});

/**
 * Fixtures the translation above can carry: every call's body given (Prebid Server's runner always
 * compares it), no rates (Prebid Server's come from the request), no mixed status and adapter errors.
 */
const translatable = (f: AdapterFixture): boolean =>
  (f.calls ?? []).every((c) => c.expectedRequest.body !== undefined) &&
  f.rates === undefined && f.globalPrivacyControl !== true && !((f.calls ?? []).some((c) => c.response.status !== 200 && c.response.status !== 204) && (f.expectedBidErrors ?? []).length > 0);

describe('check-adapter: Prebid Server-format fixtures', () => {
  for (const bidder of ['sovrn', 'openx', 'criteo', 'sharethrough', 'smartadserver']) {
    it(`agrees with our runner on every translatable ${bidder} fixture of ours`, () => {
      const module = BUILTIN_ADAPTERS[bidder]!;
      const cases = fixturesOf(bidder).filter((c) => translatable(c.fixture));
      assert.ok(cases.length >= 5, `only ${cases.length} ${bidder} fixtures`);
      for (const { file, fixture } of cases) {
        const result = checkPbsFixture(module, asPbs(fixture), optionsFor(module, fixture));
        assert.deepEqual(result.problems, [], file);
        assert.deepEqual(result.wording, [], file);
      }
    });
  }

  const sovrn = BUILTIN_ADAPTERS.sovrn!;
  const base = fixturesOf('sovrn').find((c) => c.file.endsWith('.json') && (c.fixture.expectedBids ?? []).some((a) => a.bids.length > 0) && translatable(c.fixture))!;
  const pbs = asPbs(base.fixture);
  const options = optionsFor(sovrn, base.fixture);

  it('fails a case whose expected body, uri, bid or number of calls differ', () => {
    const call = pbs.httpCalls![0]!;
    const wrongBody = { ...pbs, httpCalls: [{ ...call, expectedRequest: { ...call.expectedRequest, body: { id: 'another' } } }] };
    assert.match(checkPbsFixture(sovrn, wrongBody, options).problems.join(), /call 0 not made: body/);
    const wrongUri = { ...pbs, httpCalls: [{ ...call, expectedRequest: { ...call.expectedRequest, uri: 'http://elsewhere.test/' } }] };
    assert.match(checkPbsFixture(sovrn, wrongUri, options).problems.join(), /call 0 not made: uri/);
    const answer = pbs.expectedBidResponses![0]!;
    const wrongPrice = { ...pbs, expectedBidResponses: [{ ...answer, bids: answer.bids!.map((b) => ({ ...b, bid: { ...(b.bid as object), price: 999 } })) }] };
    assert.match(checkPbsFixture(sovrn, wrongPrice, options).problems.join(), /answer 0 bids/);
    assert.match(checkPbsFixture(sovrn, { ...pbs, httpCalls: [] }, options).problems.join(), /1 calls, expected 0/);
  });

  it('reads fixture keys in any case, as Go does, and lists other wording apart from problems', () => {
    const upper = Object.fromEntries(Object.entries(pbs).map(([k, v]) => [k.toLowerCase(), v])) as unknown as PbsFixture;
    assert.deepEqual(checkPbsFixture(sovrn, upper, options).problems, []);
    const unreadable = { ...pbs, httpCalls: [{ ...pbs.httpCalls![0]!, mockResponse: { status: 200, body: 'not json' } }], expectedBidResponses: [], expectedMakeBidsErrors: [{ value: 'expect { or n, but found', comparison: 'literal' as const }] };
    const result = checkPbsFixture(sovrn, unreadable, options);
    assert.deepEqual(result.problems, []);
    assert.equal(result.wording.length, 1);
  });

  it("plays the exchange's part for statuses: 204 is no bid, another status one error of any wording", () => {
    const call = pbs.httpCalls![0]!;
    const noContent = { ...pbs, httpCalls: [{ ...call, mockResponse: { status: 204 } }], expectedBidResponses: [] };
    assert.deepEqual(checkPbsFixture(sovrn, noContent, options).problems, []);
    const serverError = { ...noContent, httpCalls: [{ ...call, mockResponse: { status: 500 } }], expectedMakeBidsErrors: [{ value: 'Unexpected status code: 500', comparison: 'literal' as const }] };
    assert.deepEqual(checkPbsFixture(sovrn, serverError, options), { problems: [], wording: [] });
    assert.match(checkPbsFixture(sovrn, { ...serverError, expectedMakeBidsErrors: [] }, options).problems.join(), /1 errors, expected 0/);
  });

  describe('npm run check-adapter', () => {
    const dir = mkdtempSync(join(tmpdir(), 'openbid-check-adapter-'));
    after(() => rmSync(dir, { recursive: true, force: true }));
    const root = join(dir, 'sovrntest');
    const write = (folder: string, name: string, fixture: unknown): void => {
      mkdirSync(join(root, folder), { recursive: true });
      writeFileSync(join(root, folder, name), JSON.stringify(fixture));
    };
    const run = (...args: string[]) => spawnSync(process.execPath, ['--import', 'tsx', 'scripts/check-adapter.ts', 'sovrn', root, ...args], { encoding: 'utf8', timeout: 60_000 });

    it('passes a folder of good cases, taking the endpoint from the Go test beside it', () => {
      write('exemplary', 'good.json', { ...pbs, httpCalls: pbs.httpCalls!.map((c) => ({ ...c, expectedRequest: { ...c.expectedRequest, uri: 'http://from-go-test.example/bid' } })) });
      writeFileSync(join(dir, 'sovrn_test.go'), 'bidder, _ := Builder("sovrn", config.Adapter{\n\t\tEndpoint: "http://from-go-test.example/bid"}, config.Server{})\n');
      const out = run();
      assert.equal(out.status, 0, out.stdout + out.stderr);
      assert.match(out.stdout, /1 cases with endpoint http:\/\/from-go-test\.example\/bid: 1 pass \(0 with an error worded otherwise\), 0 fail/);
    });

    it('exits 1 naming a failing case; a failing video case is listed apart and does not fail the check', () => {
      write('video', 'video-only.json', { ...pbs, httpCalls: [] });
      const videoOnly = run();
      assert.equal(videoOnly.status, 0, videoOnly.stdout);
      assert.match(videoOnly.stdout, /1 video-endpoint cases fail/);
      write('supplemental', 'bad.json', { ...pbs, httpCalls: [] });
      const out = run();
      assert.equal(out.status, 1, out.stdout);
      assert.match(out.stdout, /FAIL {2}.*supplemental\/bad\.json/);
      assert.match(out.stdout, /3 cases .*: 1 pass .*, 1 fail/);
    });
  });
});
