import assert from 'node:assert/strict';
import { randomUUID } from 'node:crypto';
import { after, before, describe, it } from 'node:test';
import { isAppError } from '../../src/core/app-error.js';
import type { AccountFetcher } from '../../src/stored/account.js';
import type { StoredRequestFetcher } from '../../src/stored/stored-request-fetcher.js';

/** A backend under test, with a way to write into it behind the fetcher's back. */
export interface StoredBackendUnderTest {
  readonly fetcher: StoredRequestFetcher;
  readonly accounts: AccountFetcher;
  /** Writes (or replaces) one entry; `value` is a JSON object, or raw text for the backends that can hold anything. */
  put(kind: 'request' | 'imp' | 'account', id: string, value: object): Promise<void>;
  /** Releases whatever the factory started (servers, pools, watchers). */
  readonly cleanup: () => Promise<void>;
}

const parsed = (m: ReadonlyMap<string, string>): Record<string, unknown> => Object.fromEntries([...m].map(([k, v]) => [k, JSON.parse(v) as unknown]));

/**
 * The behaviour every stored-data backend has (see the `StoredRequestFetcher` and `AccountFetcher`
 * contracts). Each backend's test file calls this with a factory; ids are random so tests never
 * see each other's data.
 */
export const storedDataContract = (name: string, make: () => Promise<StoredBackendUnderTest>): void => {
  describe(`stored data contract: ${name}`, () => {
    let sut: StoredBackendUnderTest;
    const id = (label: string): string => `${label}-${randomUUID()}`;

    before(async () => {
      sut = await make();
    });
    after(async () => {
      await sut.cleanup();
    });

    it('finds stored requests and imps by id, as the JSON written', async () => {
      const [r1, r2, i1] = [id('req'), id('req'), id('imp')];
      await sut.put('request', r1, { id: 'one', imp: [{ id: 'x', banner: { format: [{ w: 300, h: 250 }] } }], tmax: 500 });
      await sut.put('request', r2, { id: 'two', site: { page: 'https://example.com/é' } });
      await sut.put('imp', i1, { id: 'imp-1', ext: { prebid: { bidder: { generic: { zone: 7 } } } } });
      const found = await sut.fetcher.fetchRequests([r1, r2], [i1]);
      assert.deepEqual(parsed(found.requests), {
        [r1]: { id: 'one', imp: [{ id: 'x', banner: { format: [{ w: 300, h: 250 }] } }], tmax: 500 },
        [r2]: { id: 'two', site: { page: 'https://example.com/é' } },
      });
      assert.deepEqual(parsed(found.imps), { [i1]: { id: 'imp-1', ext: { prebid: { bidder: { generic: { zone: 7 } } } } } });
      assert.deepEqual(found.missing, []);
    });

    it('reports missing ids once each, requests first, and ignores empty ids', async () => {
      const [r, gone1, gone2, impGone] = [id('req'), id('gone'), id('gone'), id('imp-gone')];
      await sut.put('request', r, { id: 'present' });
      const found = await sut.fetcher.fetchRequests([gone1, r, gone1, '', gone2], [impGone, impGone, '']);
      assert.deepEqual([...found.requests.keys()], [r]);
      assert.equal(found.imps.size, 0);
      assert.deepEqual(found.missing, [gone1, gone2, impGone]);
    });

    it('answers an empty lookup with nothing', async () => {
      assert.deepEqual(await sut.fetcher.fetchRequests([], []), { requests: new Map(), imps: new Map(), missing: [] });
    });

    it('keeps stored requests and stored imps apart', async () => {
      const shared = id('both');
      await sut.put('request', shared, { id: 'as-request' });
      const found = await sut.fetcher.fetchRequests([shared], [shared]);
      assert.deepEqual(parsed(found.requests), { [shared]: { id: 'as-request' } });
      assert.equal(found.imps.size, 0);
      assert.deepEqual(found.missing, [shared]);
    });

    it('finds ids with spaces, quotes, commas and non-ASCII characters', async () => {
      const odd = [`tag "1", ${randomUUID()}`, `zoné 😀 ${randomUUID()}`, `a&b=c?d#${randomUUID()}`];
      for (const [i, o] of odd.entries()) await sut.put('request', o, { n: i });
      const found = await sut.fetcher.fetchRequests(odd, []);
      assert.deepEqual(parsed(found.requests), Object.fromEntries(odd.map((o, i) => [o, { n: i }])));
    });

    it('serves the new version of an entry that changed', async () => {
      const r = id('req');
      await sut.put('request', r, { v: 1 });
      assert.deepEqual(parsed((await sut.fetcher.fetchRequests([r], [])).requests), { [r]: { v: 1 } });
      await sut.put('request', r, { v: 2 });
      assert.deepEqual(parsed((await sut.fetcher.fetchRequests([r], [])).requests), { [r]: { v: 2 } });
    });

    it('answers concurrent lookups each in full', async () => {
      const ids = Array.from({ length: 20 }, () => id('req'));
      for (const [i, r] of ids.entries()) await sut.put('request', r, { n: i });
      const all = await Promise.all(ids.map((r) => sut.fetcher.fetchRequests([r], [])));
      all.forEach((found, i) => assert.deepEqual(parsed(found.requests), { [ids[i] as string]: { n: i } }));
    });

    it('gives a known account its own settings, an unknown one nothing', async () => {
      const a = id('acct');
      await sut.put('account', a, { events: { enabled: false }, auction: { price_granularity: 'high', targeting_prefix: 'pb' } });
      assert.deepEqual(await sut.accounts.fetch(a), { events: { enabled: false }, auction: { price_granularity: 'high', targeting_prefix: 'pb' } });
      assert.equal(await sut.accounts.fetch(id('nobody')), undefined);
    });

    it('refuses an account whose settings break the schema, naming every problem', async () => {
      const a = id('bad');
      await sut.put('account', a, { events: { enabled: 'yes' }, auction: { banner_cache_ttl_seconds: -5 }, colour: 'blue' });
      await assert.rejects(
        async () => sut.accounts.fetch(a),
        (err) =>
          isAppError(err) &&
          err.code === 'BACKEND_FAILURE' &&
          err.message.includes(`account '${a}'`) &&
          err.message.includes('(root): unknown key colour') &&
          err.message.includes('events.enabled: must be boolean') &&
          err.message.includes('auction.banner_cache_ttl_seconds: must be >= 0'),
      );
    });
  });
};
