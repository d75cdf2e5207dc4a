import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { mapMaybe } from './maybe-promise.js';

describe('mapMaybe', () => {
  it('applies the function at once to a value that is here', () => {
    const out = mapMaybe(2, (n) => n * 10);
    assert.equal(out, 20);
  });

  it('applies it on resolution to a promise, and passes a rejection on untouched', async () => {
    const out = mapMaybe(Promise.resolve(2), (n) => n * 10);
    assert.ok(out instanceof Promise);
    assert.equal(await out, 20);
    const failure = new Error('backend down');
    await assert.rejects(Promise.resolve(mapMaybe(Promise.reject(failure), () => 'never')), failure);
  });

  it('lets the function throw directly for a present value', () => {
    assert.throws(() => mapMaybe(1, () => {
      throw new Error('refused');
    }), /refused/);
  });

  it('answers directly only when both steps do: a promise from the function is passed on, not nested', async () => {
    const later = mapMaybe(2, (n) => Promise.resolve(n + 1));
    assert.ok(later instanceof Promise);
    assert.equal(await later, 3);
    assert.equal(await mapMaybe(Promise.resolve(2), (n) => Promise.resolve(n * 5)), 10);
  });
});
