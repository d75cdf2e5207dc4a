import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import fc from 'fast-check';
import { JsonTooDeepError, MAX_JSON_DEPTH, jsonDeeperThan, parseBoundedJson } from './bounded-json.js';

/** The nesting depth of a parsed value, by walking it (the reference the scanner must agree with). */
const depthOf = (v: unknown): number => {
  if (typeof v !== 'object' || v === null) return 0;
  const children = Array.isArray(v) ? v : Object.values(v);
  let deepest = 0;
  for (const c of children) deepest = Math.max(deepest, depthOf(c));
  return deepest + 1;
};

const nested = (depth: number, inner = '1'): string => '{"a":['.repeat(depth / 2) + inner + ']}'.repeat(depth / 2);

describe('bounded JSON', () => {
  it('counts nesting, not brackets inside strings or escaped quotes', () => {
    assert.equal(jsonDeeperThan('[[1]]', 2), false);
    assert.equal(jsonDeeperThan('[[[1]]]', 2), true);
    assert.equal(jsonDeeperThan('["[[[[[[", "\\"[[[[", {"k\\\\": "{{{{"}]', 2), false);
    assert.equal(jsonDeeperThan('[{"a": "\\\\"}, [[1]]]', 2), true);
    assert.equal(jsonDeeperThan('{"a":1}{"b":2}', 1), false, 'siblings do not add up');
  });

  it('agrees with a walk of the parsed value on any JSON', () => {
    fc.assert(
      fc.property(fc.jsonValue({ maxDepth: 12 }), fc.integer({ min: 0, max: 14 }), (value, limit) => {
        const text = JSON.stringify(value);
        assert.equal(jsonDeeperThan(text, limit), depthOf(value) > limit);
      }),
      { seed: 20261124, numRuns: 2000 },
    );
  });

  it('refuses JSON deeper than the limit and accepts it at the limit', () => {
    assert.deepEqual(depthOf(parseBoundedJson(nested(MAX_JSON_DEPTH))), MAX_JSON_DEPTH);
    assert.throws(() => parseBoundedJson(nested(MAX_JSON_DEPTH + 2)), JsonTooDeepError);
    assert.throws(() => parseBoundedJson('['.repeat(50_000) + ']'.repeat(50_000)), /nested more than 100 levels deep/);
  });

  it('leaves syntax errors to JSON.parse', () => {
    assert.throws(() => parseBoundedJson('{"a":'), SyntaxError);
    assert.equal(parseBoundedJson('"[[[["'), '[[[[');
  });
});
