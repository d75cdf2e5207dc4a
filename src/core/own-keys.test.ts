import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { copyToExtend, ownValue, setOwn, withKey, withKeys } from './own-keys.js';

describe('copyToExtend', () => {
  it('copies the own keys into a new object, in order, leaving the source as it was', () => {
    const source = { id: 'u1', ext: { eids: [] } };
    const copy = copyToExtend(source);
    (copy as Record<string, unknown>).buyeruid = 'b1';
    assert.notEqual(copy, source);
    assert.deepEqual(Object.keys(copy), ['id', 'ext', 'buyeruid']);
    assert.equal(copy.ext, source.ext, 'a shallow copy');
    assert.deepEqual(Object.keys(source), ['id', 'ext']);
  });

  it('keeps an own __proto__ key (JSON.parse makes one) as data, never as the prototype', () => {
    const source = JSON.parse('{"a":1,"__proto__":{"polluted":true}}') as Record<string, unknown>;
    const copy = copyToExtend(source);
    assert.equal(Object.getPrototypeOf(copy), Object.prototype);
    assert.equal((copy as { polluted?: unknown }).polluted, undefined);
    assert.deepEqual(ownValue(copy, '__proto__'), { polluted: true });
    assert.equal(JSON.stringify(copy), '{"a":1,"__proto__":{"polluted":true}}');
  });
});

describe('withKey', () => {
  it('gives a copy with the key set, added after the others or replaced in place', () => {
    const source = { id: 'r1', tmax: 500 };
    assert.deepEqual(Object.entries(withKey(source, 'tmax', 300)), [['id', 'r1'], ['tmax', 300]]);
    const user: { id: string; buyeruid?: string } = { id: 'u1' };
    assert.equal(JSON.stringify(withKey(user, 'buyeruid', 'b1')), '{"id":"u1","buyeruid":"b1"}');
    assert.deepEqual(source, { id: 'r1', tmax: 500 });
    assert.deepEqual(user, { id: 'u1' });
  });
});

describe('setOwn', () => {
  it('sets __proto__ as an own key', () => {
    const target: Record<string, unknown> = {};
    setOwn(target, '__proto__', 1);
    assert.equal(ownValue(target, '__proto__'), 1);
    assert.equal(Object.getPrototypeOf(target), Object.prototype);
  });
});

describe('withKeys', () => {
  it('gives a copy with the extra keys after the source keys, a key the source has replaced in place', () => {
    const banner = { format: [{ w: 300, h: 250 }], pos: 1 };
    const out = withKeys(banner, { w: 300, h: 250, pos: 3 });
    assert.equal(JSON.stringify(out), '{"format":[{"w":300,"h":250}],"pos":3,"w":300,"h":250}');
    assert.deepEqual(banner, { format: [{ w: 300, h: 250 }], pos: 1 });
  });
});
