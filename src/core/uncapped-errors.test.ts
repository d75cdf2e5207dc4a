import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import Type from 'typebox';
import { Compile } from 'typebox/compile';
import { Settings } from 'typebox/system';
import Value from 'typebox/value';
import { withoutErrorCap } from './uncapped-errors.js';

const Strict = Type.Object({ n: Type.Integer() }, { additionalProperties: false });
const doc: Record<string, unknown> = { n: 'x' };
for (let i = 0; i < 20; i++) doc[`k${i}`] = i;

describe('withoutErrorCap', () => {
  it('gathers every error, interpreted or compiled, where TypeBox alone stops at 8', () => {
    assert.equal(Value.Errors(Strict, doc).length, 8);
    // 20 unknown keys' `false` schemas, their parent's error, and the wrong type.
    assert.equal(withoutErrorCap(() => Value.Errors(Strict, doc)).length, 22);
    assert.equal(withoutErrorCap(() => Compile(Strict).Errors(doc)).length, 22);
  });

  it('puts the cap back afterwards, also when the call throws', () => {
    assert.throws(() =>
      withoutErrorCap(() => {
        throw new Error('boom');
      }),
    );
    assert.equal(Settings.Get().maxErrors, 8);
    assert.equal(Value.Errors(Strict, doc).length, 8);
  });
});
