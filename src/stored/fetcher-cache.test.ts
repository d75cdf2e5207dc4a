import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { AppError, ErrorCode, isAppError } from '../core/app-error.js';
import type { AccountFetcher, AccountSettings } from './account.js';
import { createCachedAccountFetcher, createCachedStoredRequestFetcher } from './fetcher-cache.js';
import type { StoredRequestFetcher } from './stored-request-fetcher.js';

const clock = () => {
  let t = 1_000_000;
  return { now: () => t, advance: (ms: number) => void (t += ms) };
};

/** A source whose answers the test controls: `data` by `r:id`/`i:id`, each call recorded and, when `gate` is set, held until released. */
const source = (data: Map<string, string>) => {
  const calls: { requestIds: readonly string[]; impIds: readonly string[]; accountId: string | undefined; signal: boolean }[] = [];
  let gate: Promise<void> | undefined;
  let release = (): void => undefined;
  let fail: Error | undefined;
  const fetcher: StoredRequestFetcher = {
    fetchRequests: async (requestIds, impIds, opts = {}) => {
      calls.push({ requestIds, impIds, accountId: opts.accountId, signal: opts.signal !== undefined });
      // Reads first, then waits: a held lookup answers what the data was when it started.
      const requests = new Map(requestIds.flatMap((id) => (data.has(`r:${id}`) ? [[id, data.get(`r:${id}`) as string] as const] : [])));
      const imps = new Map(impIds.flatMap((id) => (data.has(`i:${id}`) ? [[id, data.get(`i:${id}`) as string] as const] : [])));
      if (gate !== undefined) await gate;
      if (fail !== undefined) throw fail;
      return { requests, imps, missing: [...requestIds.filter((id) => !requests.has(id)), ...impIds.filter((id) => !imps.has(id))] };
    },
  };
  return {
    fetcher,
    calls,
    hold: () => {
      gate = new Promise((r) => (release = r));
    },
    release: () => {
      gate = undefined;
      release();
    },
    failWith: (err: Error | undefined) => void (fail = err),
  };
};

const options = (c: ReturnType<typeof clock>, extra: Partial<{ ttlMs: number; missTtlMs: number; maxEntries: number; maxBytes: number }> = {}) => ({
  ttlMs: 60_000,
  missTtlMs: 5_000,
  maxEntries: 100,
  maxBytes: 1024 * 1024,
  clock: c,
  ...extra,
});

describe('stored request cache', () => {
  it('serves a hot id from memory: one call to the sources', async () => {
    const s = source(new Map([['r:tag', '{"id":"t"}'], ['i:imp', '{"id":"i"}']]));
    const cached = createCachedStoredRequestFetcher(s.fetcher, options(clock()));
    for (let i = 0; i < 5; i++) {
      const found = await cached.fetchRequests(['tag'], ['imp']);
      assert.equal(found.requests.get('tag'), '{"id":"t"}');
      assert.equal(found.imps.get('imp'), '{"id":"i"}');
    }
    assert.equal(s.calls.length, 1);
  });

  it('asks the sources only for what it does not hold, and answers in the order asked', async () => {
    const s = source(new Map([['r:a', '{"a":1}'], ['r:b', '{"b":1}']]));
    const cached = createCachedStoredRequestFetcher(s.fetcher, options(clock()));
    await cached.fetchRequests(['a'], []);
    const found = await cached.fetchRequests(['x', 'a', 'b'], ['y']);
    assert.deepEqual(s.calls.at(-1)?.requestIds, ['x', 'b']);
    assert.deepEqual(s.calls.at(-1)?.impIds, ['y']);
    assert.deepEqual([...found.requests.keys()], ['a', 'b']);
    assert.deepEqual(found.missing, ['x', 'y']);
  });

  it('shares one lookup between concurrent callers of the same id', async () => {
    const s = source(new Map([['r:tag', '{}']]));
    const cached = createCachedStoredRequestFetcher(s.fetcher, options(clock()));
    s.hold();
    const all = Array.from({ length: 10 }, () => cached.fetchRequests(['tag'], []));
    s.release();
    for (const found of await Promise.all(all)) assert.equal(found.requests.get('tag'), '{}');
    assert.equal(s.calls.length, 1);
  });

  it('forgets an entry after its TTL, a missing id after the shorter miss TTL', async () => {
    const c = clock();
    const data = new Map([['r:tag', '{"v":1}']]);
    const s = source(data);
    const cached = createCachedStoredRequestFetcher(s.fetcher, options(c));
    await cached.fetchRequests(['tag', 'gone'], []);
    data.set('r:tag', '{"v":2}');
    data.set('r:gone', '{"back":true}');
    c.advance(4_999);
    assert.deepEqual((await cached.fetchRequests(['tag', 'gone'], [])).missing, ['gone'], 'a miss is remembered');
    c.advance(2);
    assert.equal((await cached.fetchRequests(['gone'], [])).requests.get('gone'), '{"back":true}');
    assert.equal((await cached.fetchRequests(['tag'], [])).requests.get('tag'), '{"v":1}');
    c.advance(60_000);
    assert.equal((await cached.fetchRequests(['tag'], [])).requests.get('tag'), '{"v":2}');
    assert.equal(s.calls.length, 3);
  });

  it('remembers nothing with TTLs of 0, and never a failure', async () => {
    const s = source(new Map([['r:tag', '{}']]));
    const cached = createCachedStoredRequestFetcher(s.fetcher, options(clock(), { ttlMs: 0, missTtlMs: 0 }));
    await cached.fetchRequests(['tag', 'gone'], []);
    await cached.fetchRequests(['tag', 'gone'], []);
    assert.equal(s.calls.length, 2);

    const f = source(new Map([['r:tag', '{}']]));
    const remembering = createCachedStoredRequestFetcher(f.fetcher, options(clock()));
    f.failWith(new AppError(ErrorCode.BACKEND_FAILURE, 'down'));
    await assert.rejects(remembering.fetchRequests(['tag'], []), /down/);
    f.failWith(undefined);
    assert.equal((await remembering.fetchRequests(['tag'], [])).requests.get('tag'), '{}');
  });

  it('holds at most max entries, dropping the least recently used', async () => {
    const s = source(new Map([['r:a', '{}'], ['r:b', '{}'], ['r:c', '{}']]));
    const cached = createCachedStoredRequestFetcher(s.fetcher, options(clock(), { maxEntries: 2 }));
    await cached.fetchRequests(['a'], []);
    await cached.fetchRequests(['b'], []);
    await cached.fetchRequests(['a'], []);
    await cached.fetchRequests(['c'], []);
    const before = s.calls.length;
    await cached.fetchRequests(['a'], []);
    assert.equal(s.calls.length, before, 'a was used recently: kept');
    await cached.fetchRequests(['b'], []);
    assert.equal(s.calls.length, before + 1, 'b was dropped');
  });

  it('holds at most max bytes of misses: long unknown ids push the oldest out long before max entries', async () => {
    const s = source(new Map());
    // 100 entries allowed, but 16 KiB holds about seven misses of 1,000-character ids.
    const cached = createCachedStoredRequestFetcher(s.fetcher, options(clock(), { maxEntries: 100, maxBytes: 16 * 1024 }));
    const id = (i: number) => `${String(i).padStart(4, '0')}${'x'.repeat(996)}`;
    for (let i = 0; i < 20; i++) await cached.fetchRequests([id(i)], []);
    const before = s.calls.length;
    await cached.fetchRequests([id(19)], []);
    assert.equal(s.calls.length, before, 'the latest miss is still held');
    await cached.fetchRequests([id(0)], []);
    assert.equal(s.calls.length, before + 1, 'the oldest miss was dropped for its bytes');
  });

  it('holds at most max bytes of found entries, and never one larger than that', async () => {
    const big = `{"a":"${'v'.repeat(3000)}"}`;
    const s = source(new Map([['r:a', big], ['r:b', big], ['r:c', big], ['r:huge', `{"a":"${'v'.repeat(20_000)}"}`]]));
    const cached = createCachedStoredRequestFetcher(s.fetcher, options(clock(), { maxEntries: 100, maxBytes: 16 * 1024 }));
    for (const id of ['a', 'b', 'c']) await cached.fetchRequests([id], []);
    let before = s.calls.length;
    await cached.fetchRequests(['c'], []);
    assert.equal(s.calls.length, before, 'c is held');
    await cached.fetchRequests(['a'], []);
    assert.equal(s.calls.length, before + 1, 'a was dropped: two 6 KB values fill 16 KiB');
    await cached.fetchRequests(['huge'], []);
    before = s.calls.length;
    assert.equal((await cached.fetchRequests(['huge'], [])).requests.get('huge')?.length, 20_008);
    assert.equal(s.calls.length, before + 1, 'a value over max bytes is answered but not kept');
  });

  it('keeps misses apart: a flood of unknown ids does not push a hot entry out', async () => {
    const s = source(new Map([['r:hot', '{}']]));
    const cached = createCachedStoredRequestFetcher(s.fetcher, options(clock(), { maxEntries: 3 }));
    await cached.fetchRequests(['hot'], []);
    for (let i = 0; i < 10; i++) await cached.fetchRequests([`unknown-${i}`], []);
    const before = s.calls.length;
    assert.equal((await cached.fetchRequests(['hot'], [])).requests.get('hot'), '{}');
    assert.equal(s.calls.length, before);
  });

  it('keys entries by account, and passes the account on', async () => {
    const s = source(new Map([['r:tag', '{}']]));
    const cached = createCachedStoredRequestFetcher(s.fetcher, options(clock()));
    await cached.fetchRequests(['tag'], [], { accountId: 'pub-1' });
    await cached.fetchRequests(['tag'], [], { accountId: 'pub-2' });
    await cached.fetchRequests(['tag'], [], { accountId: 'pub-1' });
    assert.deepEqual(
      s.calls.map((c) => c.accountId),
      ['pub-1', 'pub-2'],
    );
  });

  it('drops an id on invalidation, even while its lookup is under way', async () => {
    const data = new Map([['r:tag', '{"v":1}'], ['i:tag', '{"imp":1}']]);
    const s = source(data);
    const cached = createCachedStoredRequestFetcher(s.fetcher, options(clock()));
    await cached.fetchRequests(['tag'], ['tag'], { accountId: 'pub' });
    data.set('r:tag', '{"v":2}');
    cached.invalidate('request', 'tag');
    assert.equal((await cached.fetchRequests(['tag'], [], { accountId: 'pub' })).requests.get('tag'), '{"v":2}');
    assert.equal((await cached.fetchRequests([], ['tag'], { accountId: 'pub' })).imps.get('tag'), '{"imp":1}', 'imps of that id stay');

    // A lookup that read the old version before the change must not store it.
    s.hold();
    data.set('r:tag', '{"v":3}');
    cached.invalidate('request', 'tag');
    const racing = cached.fetchRequests(['tag'], []);
    data.set('r:tag', '{"v":4}');
    cached.invalidate('request');
    s.release();
    assert.equal((await racing).requests.get('tag'), '{"v":3}');
    assert.equal((await cached.fetchRequests(['tag'], [])).requests.get('tag'), '{"v":4}');
  });

  it("stops waiting at the caller's deadline without failing the others sharing the lookup", async () => {
    const s = source(new Map([['r:tag', '{}']]));
    const cached = createCachedStoredRequestFetcher(s.fetcher, options(clock()));
    s.hold();
    const abort = new AbortController();
    const impatient = cached.fetchRequests(['tag'], [], { signal: abort.signal });
    const patient = cached.fetchRequests(['tag'], []);
    abort.abort();
    await assert.rejects(impatient, (err) => isAppError(err) && err.code === 'BACKEND_TIMEOUT');
    s.release();
    assert.equal((await patient).requests.get('tag'), '{}');
    assert.equal(s.calls.length, 1);
    assert.equal(s.calls[0]?.signal, false, "a shared lookup does not take one caller's signal");
  });
});

describe('account cache', () => {
  const settings: AccountSettings = { auction: { debug_allow: false } };
  const counting = (answer: (id: string) => ReturnType<AccountFetcher['fetch']>) => {
    const asked: string[] = [];
    const fetcher: AccountFetcher = {
      fetch: (id) => {
        asked.push(id);
        return answer(id);
      },
    };
    return { fetcher, asked };
  };

  it('answers a held account (or a held miss) directly, without a promise', async () => {
    const s = counting(async (id) => (id === 'a' ? settings : undefined));
    const cached = createCachedAccountFetcher(s.fetcher, options(clock()));
    assert.equal(await cached.fetch('a'), settings);
    assert.equal(await cached.fetch('nobody'), undefined);
    assert.equal(cached.fetch('a'), settings);
    assert.equal(cached.fetch('nobody'), undefined);
    assert.deepEqual(s.asked, ['a', 'nobody']);
  });

  it('shares one lookup between concurrent callers, and remembers no failure', async () => {
    let fail = true;
    const s = counting(async () => {
      if (fail) throw new AppError(ErrorCode.BACKEND_TIMEOUT, 'slow');
      return settings;
    });
    const cached = createCachedAccountFetcher(s.fetcher, options(clock()));
    const results = await Promise.allSettled([cached.fetch('a'), cached.fetch('a')]);
    assert.deepEqual(
      results.map((r) => r.status),
      ['rejected', 'rejected'],
    );
    assert.equal(s.asked.length, 1);
    fail = false;
    assert.equal(await cached.fetch('a'), settings);
  });

  it('forgets an account after its TTL or on invalidation', async () => {
    const c = clock();
    let current: AccountSettings = settings;
    const s = counting(() => current);
    const cached = createCachedAccountFetcher(s.fetcher, options(c));
    assert.equal(cached.fetch('a'), settings);
    current = { events: { enabled: false } };
    cached.invalidate('account', 'a');
    assert.equal(cached.fetch('a'), current);
    const newer: AccountSettings = {};
    current = newer;
    c.advance(60_001);
    assert.equal(cached.fetch('a'), newer);
    assert.equal(s.asked.length, 3);
  });
});

describe('evicting changed rows', () => {
  it("drops a shared row's id under every account, an account's own row only under that account, and nothing else", async () => {
    const data = new Map([['r:tag', 'v1'], ['r:other', 'o1'], ['i:tag', 'imp1']]);
    const s = source(data);
    const cached = createCachedStoredRequestFetcher(s.fetcher, options(clock()));
    const read = async (accountId?: string) => {
      const found = await cached.fetchRequests(['tag', 'other'], ['tag'], accountId === undefined ? {} : { accountId });
      return [found.requests.get('tag'), found.requests.get('other'), found.imps.get('tag')];
    };
    for (const a of [undefined, 'pub-1', 'pub-2']) await read(a);
    assert.equal(s.calls.length, 3);
    for (const k of ['r:tag', 'r:other', 'i:tag']) data.set(k, `${data.get(k)}+`);

    // pub-1's own row of request `tag` changed: only pub-1's entry of it goes.
    cached.evictChanged([{ kind: 'request', accountId: 'pub-1', id: 'tag' }]);
    assert.deepEqual(await read('pub-1'), ['v1+', 'o1', 'imp1']);
    assert.deepEqual(await read('pub-2'), ['v1', 'o1', 'imp1']);
    assert.deepEqual(await read(), ['v1', 'o1', 'imp1']);

    // The shared row of imp `tag` changed: every account's entry of imp `tag` goes, not request `tag`.
    cached.evictChanged([{ kind: 'imp', accountId: '', id: 'tag' }]);
    for (const a of [undefined, 'pub-1', 'pub-2']) assert.equal((await read(a))[2], 'imp1+');
    assert.equal((await read('pub-2'))[0], 'v1');
    assert.equal((await read('pub-2'))[1], 'o1');
  });

  it('drops a remembered miss too, and does not store what a lookup under way read before the change', async () => {
    const data = new Map<string, string>();
    const s = source(data);
    const cached = createCachedStoredRequestFetcher(s.fetcher, options(clock()));
    assert.deepEqual((await cached.fetchRequests(['new'], [])).missing, ['new']);
    data.set('r:new', 'created');
    cached.evictChanged([{ kind: 'request', accountId: '', id: 'new' }]);
    assert.equal((await cached.fetchRequests(['new'], [])).requests.get('new'), 'created');

    s.hold();
    const stale = cached.fetchRequests(['other'], []);
    data.set('r:other', 'after');
    cached.evictChanged([{ kind: 'request', accountId: '', id: 'other' }]);
    s.release();
    assert.deepEqual((await stale).missing, ['other']);
    assert.equal((await cached.fetchRequests(['other'], [])).requests.get('other'), 'after');
  });

  it('drops an account by id, among thousands of changes at once', async () => {
    const settings: AccountSettings = { auction: { debug_allow: false } };
    let current: AccountSettings = settings;
    const asked: string[] = [];
    const cached = createCachedAccountFetcher({ fetch: (id) => (asked.push(id), current) }, options(clock()));
    assert.equal(cached.fetch('a'), settings);
    assert.equal(cached.fetch('b'), settings);
    current = { events: { enabled: false } };
    const many = Array.from({ length: 5_000 }, (_, i) => ({ kind: 'account' as const, accountId: '', id: `x${i}` }));
    cached.evictChanged([...many, { kind: 'account', accountId: '', id: 'a' }, { kind: 'request', accountId: '', id: 'b' }]);
    assert.equal(cached.fetch('a'), current);
    assert.equal(cached.fetch('b'), settings);
    assert.deepEqual(asked, ['a', 'b', 'a']);
  });
});
