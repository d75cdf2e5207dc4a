import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { mergePatch, mergeStoredImp, mergeStoredRequest, resolveStoredData } from './merge.js';
import type { StoredRequestFetcher } from './stored-request-fetcher.js';

describe('JSON merge patch (RFC 7386)', () => {
  // The examples of RFC 7386, appendix A.
  const cases: [unknown, unknown, unknown][] = [
    [{ a: 'b' }, { a: 'c' }, { a: 'c' }],
    [{ a: 'b' }, { b: 'c' }, { a: 'b', b: 'c' }],
    [{ a: 'b' }, { a: null }, {}],
    [{ a: 'b', b: 'c' }, { a: null }, { b: 'c' }],
    [{ a: ['b'] }, { a: 'c' }, { a: 'c' }],
    [{ a: 'c' }, { a: ['b'] }, { a: ['b'] }],
    [{ a: { b: 'c' } }, { a: { b: 'd', c: null } }, { a: { b: 'd' } }],
    [{ a: [{ b: 'c' }] }, { a: [1] }, { a: [1] }],
    [['a', 'b'], ['c', 'd'], ['c', 'd']],
    [{ a: 'b' }, ['c'], ['c']],
    [{ a: 'foo' }, null, null],
    [{ a: 'foo' }, 'bar', 'bar'],
    [{ e: null }, { a: 1 }, { e: null, a: 1 }],
    [[1, 2], { a: 'b', c: null }, { a: 'b' }],
    [{}, { a: { bb: { ccc: null } } }, { a: { bb: {} } }],
  ];
  for (const [target, patch, result] of cases) {
    it(`${JSON.stringify(target)} + ${JSON.stringify(patch)} = ${JSON.stringify(result)}`, () => {
      assert.deepEqual(mergePatch(target, patch), result);
    });
  }

  it('modifies neither argument', () => {
    const target = { a: { b: 1, c: [1] }, d: 1 };
    const patch = { a: { b: 2, c: null }, d: null };
    const before = structuredClone({ target, patch });
    mergePatch(target, patch);
    assert.deepEqual({ target, patch }, before);
  });

  it('keeps a "__proto__" key as data, never as a prototype', () => {
    const merged = mergePatch({}, JSON.parse('{"__proto__": {"polluted": true}, "a": 1}')) as Record<string, unknown>;
    assert.equal(Object.getPrototypeOf(merged), Object.prototype);
    assert.equal(({} as Record<string, unknown>).polluted, undefined);
    assert.deepEqual(Object.keys(merged), ['__proto__', 'a']);
  });
});

describe('stored request and imp merging', () => {
  it("keeps the request's own fields over the stored request's, nested objects merged, arrays replaced", () => {
    const stored = { id: 'stored', tmax: 500, site: { page: 'https://stored.example', publisher: { id: 'p1' } }, imp: [{ id: 's1' }, { id: 's2' }], ext: { prebid: { targeting: { pricegranularity: 'low' } } } };
    const request = { site: { page: 'https://live.example' }, imp: [{ id: 'live' }], ext: { prebid: { storedrequest: { id: 'x' } } } };
    assert.deepEqual(mergeStoredRequest(request, stored), {
      id: 'stored',
      tmax: 500,
      site: { page: 'https://live.example', publisher: { id: 'p1' } },
      imp: [{ id: 'live' }],
      ext: { prebid: { targeting: { pricegranularity: 'low' }, storedrequest: { id: 'x' } } },
    });
  });

  it('lets a null in the request delete a stored field', () => {
    assert.deepEqual(mergeStoredRequest({ tmax: null, site: { publisher: null } }, { tmax: 500, site: { page: 'p', publisher: { id: 'x' } } }), { site: { page: 'p' } });
  });

  it('gives a stored id of {{UUID}} a fresh one, only then', () => {
    assert.equal(mergeStoredRequest({ id: 'mine' }, { id: '{{UUID}}' }, () => 'fresh').id, 'fresh');
    assert.equal(mergeStoredRequest({}, { id: '{{UUID}}' }, () => 'fresh').id, 'fresh');
    assert.equal(mergeStoredRequest({}, { id: 'fixed' }, () => 'fresh').id, 'fixed');
    assert.equal(mergeStoredRequest({}, { id: '{{UUID}}' }).id, '{{UUID}}');
  });

  it("keeps an imp's own fields over its stored imp's", () => {
    assert.deepEqual(mergeStoredImp({ id: 'live', banner: { format: [{ w: 728, h: 90 }] }, ext: { prebid: { storedrequest: { id: 's' } } } }, { id: 'stored', banner: { format: [{ w: 300, h: 250 }], pos: 1 }, ext: { prebid: { bidder: { generic: { zone: 1 } } } } }), {
      id: 'live',
      banner: { format: [{ w: 728, h: 90 }], pos: 1 },
      ext: { prebid: { bidder: { generic: { zone: 1 } }, storedrequest: { id: 's' } } },
    });
  });
});

/** A fetcher over fixed data, recording each call. */
const fetcherOf = (requests: Record<string, string>, imps: Record<string, string>) => {
  const calls: { requestIds: readonly string[]; impIds: readonly string[]; accountId?: string }[] = [];
  const fetcher: StoredRequestFetcher = {
    fetchRequests: async (requestIds, impIds, opts = {}) => {
      calls.push({ requestIds, impIds, ...(opts.accountId === undefined ? {} : { accountId: opts.accountId }) });
      const r = new Map(requestIds.filter((id) => id in requests).map((id) => [id, requests[id] as string]));
      const i = new Map(impIds.filter((id) => id in imps).map((id) => [id, imps[id] as string]));
      return { requests: r, imps: i, missing: [...requestIds.filter((id) => !r.has(id)), ...impIds.filter((id) => !i.has(id))] };
    },
  };
  return { fetcher, calls };
};

const storedRef = (id: unknown) => ({ ext: { prebid: { storedrequest: { id } } } });

describe('resolveStoredData', () => {
  const data = fetcherOf(
    {
      req: JSON.stringify({ id: '{{UUID}}', tmax: 800, site: { page: 'https://stored.example' }, imp: [{ id: 'from-stored', ...storedRef('imp-b') }] }),
      broken: '{"id": ',
      list: '[1,2]',
    },
    { 'imp-a': JSON.stringify({ id: 'stored-a', banner: { format: [{ w: 300, h: 250 }] } }), 'imp-b': JSON.stringify({ banner: { format: [{ w: 320, h: 50 }] } }), 'bad-imp': '{' },
  );

  it('fetches every id once, in one call, and merges request and imps', async () => {
    const { fetcher, calls } = fetcherOf(
      { req: JSON.stringify({ id: 'stored', tmax: 800, site: { page: 'https://stored.example' } }) },
      { 'imp-a': JSON.stringify({ id: 'stored-a', banner: { format: [{ w: 300, h: 250 }] } }) },
    );
    const request = { ...storedRef('req'), site: { domain: 'live.example' }, imp: [{ id: 'one', ...storedRef('imp-a') }, { id: 'two', ...storedRef('imp-a') }, { id: 'plain' }] };
    const resolved = await resolveStoredData(request, fetcher, { accountId: 'pub' });
    assert.deepEqual(resolved.errors, []);
    assert.equal(resolved.storedRequestId, 'req');
    assert.deepEqual(calls, [{ requestIds: ['req'], impIds: ['imp-a'], accountId: 'pub' }]);
    assert.deepEqual(resolved.request, {
      id: 'stored',
      tmax: 800,
      site: { page: 'https://stored.example', domain: 'live.example' },
      ...storedRef('req'),
      imp: [
        { id: 'one', banner: { format: [{ w: 300, h: 250 }] }, ...storedRef('imp-a') },
        { id: 'two', banner: { format: [{ w: 300, h: 250 }] }, ...storedRef('imp-a') },
        { id: 'plain' },
      ],
    });
    assert.deepEqual(request.imp[2], { id: 'plain' }, 'the request given is not modified');
  });

  it('makes no call for a request that names no stored data', async () => {
    const { fetcher, calls } = fetcherOf({}, {});
    const request = { id: 'x', imp: [{ id: '1', ...storedRef('') }] };
    const resolved = await resolveStoredData(request, fetcher);
    assert.equal(resolved.request, request);
    assert.deepEqual(resolved.errors, []);
    assert.equal(calls.length, 0);
  });

  it("resolves the stored imps of a stored request's own imps, with a fresh id for {{UUID}}", async () => {
    const resolved = await resolveStoredData(storedRef('req'), data.fetcher, { newId: () => 'fresh-id' });
    assert.deepEqual(resolved.errors, []);
    assert.equal(resolved.request.id, 'fresh-id');
    assert.deepEqual(resolved.request.imp, [{ id: 'from-stored', banner: { format: [{ w: 320, h: 50 }] }, ...storedRef('imp-b') }]);
  });

  it("reports missing ids with Prebid Server's messages", async () => {
    assert.deepEqual((await resolveStoredData(storedRef('nope'), data.fetcher)).errors, ['Stored Request with ID="nope" not found.']);
    const request = { imp: [{ id: '1', ...storedRef('gone') }, { id: '2', ...storedRef('gone') }, { id: '3', ...storedRef('imp-a') }] };
    const resolved = await resolveStoredData(request, data.fetcher);
    assert.deepEqual(resolved.errors, ['Stored Imp with ID="gone" not found.']);
    assert.equal(resolved.request, request, 'nothing merged when there are errors');
  });

  it('reports ids that are not strings, and stored data that is not a JSON object', async () => {
    assert.deepEqual((await resolveStoredData(storedRef(5), data.fetcher)).errors, ['ext.prebid.storedrequest.id must be a string']);
    assert.deepEqual((await resolveStoredData({ imp: [{ id: '1' }, { id: '2', ...storedRef({}) }] }, data.fetcher)).errors, ['request.imp[1].ext.prebid.storedrequest.id must be a string']);
    const broken = await resolveStoredData(storedRef('broken'), data.fetcher);
    assert.match(broken.errors[0] ?? '', /^ext\.prebid\.storedrequest\.id refers to Stored Request broken which contains Invalid JSON: /);
    assert.deepEqual((await resolveStoredData(storedRef('list'), data.fetcher)).errors, ['ext.prebid.storedrequest.id refers to Stored Request list which contains Invalid JSON: not a JSON object']);
    const badImp = await resolveStoredData({ imp: [{ id: '1', ...storedRef('bad-imp') }] }, data.fetcher);
    assert.match(badImp.errors[0] ?? '', /^imp\.ext\.prebid\.storedrequest\.id bad-imp: Stored Imp has Invalid JSON: /);
  });

  it('lets fetcher failures through', async () => {
    const failing: StoredRequestFetcher = { fetchRequests: async () => Promise.reject(new Error('stored requests unavailable')) };
    await assert.rejects(resolveStoredData(storedRef('req'), failing), /unavailable/);
  });
});
