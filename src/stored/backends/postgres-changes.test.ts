import assert from 'node:assert/strict';
import { setImmediate as turn } from 'node:timers/promises';
import { describe, it } from 'node:test';
import type { StoredChange } from '../fetcher-cache.js';
import { backoffMs, createChangeBatcher, parseChange } from './postgres-changes.js';

describe('postgres change notifications: the pure parts', () => {
  it("reads the trigger's payload as a change, its kind alone as everything, and anything else as invalid", () => {
    assert.deepEqual(parseChange('{"k":"request","a":"","i":"tag-1"}'), { kind: 'request', accountId: '', id: 'tag-1' });
    assert.deepEqual(parseChange('{"k":"account","a":"","i":"pub"}'), { kind: 'account', accountId: '', id: 'pub' });
    // Too long to name: the trigger sends only the kind.
    assert.equal(parseChange('{"k":"imp"}'), 'everything');
    // Not the trigger's: names nothing, so changes nothing.
    const garbage = ['{"k":"table","a":"","i":"x"}', '{"k":"imp","a":1,"i":"x"}', '{"k":"imp","a":""}', '{"k":"imp","a":null,"i":null}', '{"k":"__proto__"}', '{"k":"constructor"}', '{}', '[]', 'null', '"imp"', '1', 'not json', '{"k":"imp"', '', undefined];
    for (const p of garbage) assert.equal(parseChange(p), 'invalid', String(p));
  });

  it('hands one turn of changes over at once, then starts a new batch', async () => {
    const batches: (readonly StoredChange[] | 'all')[] = [];
    const b = createChangeBatcher((c) => batches.push(c), () => batches.push('all'), 10, 1024);
    b.add({ kind: 'request', accountId: '', id: 'a' });
    b.add({ kind: 'imp', accountId: 'p', id: 'b' });
    assert.equal(batches.length, 0, 'not before the end of the turn');
    await turn();
    assert.deepEqual(batches, [[{ kind: 'request', accountId: '', id: 'a' }, { kind: 'imp', accountId: 'p', id: 'b' }]]);
    b.add({ kind: 'account', accountId: '', id: 'c' });
    await turn();
    assert.deepEqual(batches.at(-1), [{ kind: 'account', accountId: '', id: 'c' }]);
  });

  it('turns a batch past its count or bytes, or an unnamed change, into "everything"', async () => {
    const batches: (readonly StoredChange[] | 'all')[] = [];
    const b = createChangeBatcher((c) => batches.push(c), () => batches.push('all'), 3, 100);
    for (let i = 0; i < 4; i++) b.add({ kind: 'request', accountId: '', id: `id${i}` });
    await turn();
    b.add({ kind: 'request', accountId: '', id: 'x'.repeat(51) });
    await turn();
    b.add({ kind: 'request', accountId: '', id: 'ok' });
    b.add(undefined);
    b.add({ kind: 'request', accountId: '', id: 'after' });
    await turn();
    assert.deepEqual(batches, ['all', 'all', 'all']);
    b.add({ kind: 'imp', accountId: '', id: 'small' });
    b.cancel();
    await turn();
    assert.equal(batches.length, 3, 'cancelled: nothing handed over');
  });

  it('backs off doubling from the first delay to the cap, spread ±20%', () => {
    assert.deepEqual([0, 1, 2, 3, 10, 100].map((n) => backoffMs(n, 250, 30_000, () => 0.5)), [250, 500, 1000, 2000, 30_000, 30_000]);
    assert.equal(backoffMs(0, 250, 30_000, () => 0), 200);
    assert.equal(backoffMs(0, 250, 30_000, () => 1), 300);
  });
});
