import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { rawPutValues } from './raw-put-values.js';

describe('rawPutValues', () => {
  const cases: { name: string; body: string; expected: (string | undefined)[] }[] = [
    { name: 'keeps whitespace, number spelling and key order', body: '{"puts":[{"type":"json","value":{ "b" : 1.50, "a":[1e3 , true] }}]}', expected: ['{ "b" : 1.50, "a":[1e3 , true] }'] },
    { name: 'scalars and strings, quotes kept', body: '{"puts":[{"value":5},{"value":"plain text"},{"value":null},{"value":false},{"value":-0.0}]}', expected: ['5', '"plain text"', 'null', 'false', '-0.0'] },
    { name: 'value before type and other keys', body: '{"puts":[{"value":[1,[2,{"x":"]}"}]],"type":"json","ttlseconds":5}]}', expected: ['[1,[2,{"x":"]}"}]]'] },
    { name: 'escaped quotes and backslashes inside strings', body: '{"puts":[{"type":"json","value":{"s":"a\\"}\\\\","t":"\\\\"}}]}', expected: ['{"s":"a\\"}\\\\","t":"\\\\"}'] },
    { name: 'an element with no value and a non-object element', body: '{"puts":[{"type":"json"},7,{"value":"x"}]}', expected: [undefined, undefined, '"x"'] },
    { name: 'other top-level keys before and after puts', body: '{"a":{"puts":[{"value":1}]},"puts":[{"value":2}],"z":[{"value":3}]}', expected: ['2'] },
    { name: 'the last of duplicate puts keys wins, as in JSON.parse', body: '{"puts":[{"value":1}],"puts":[{"value":2},{"value":3}]}', expected: ['2', '3'] },
    { name: 'the last of duplicate value keys wins', body: '{"puts":[{"value":1,"value":{"k":2}}]}', expected: ['{"k":2}'] },
    { name: 'an escaped key name', body: '{"\\u0070uts":[{"\\u0076alue":{"k":1}}]}', expected: ['{"k":1}'] },
    { name: 'non-ASCII text', body: '{"puts":[{"value":{"é":"😀"}}]}', expected: ['{"é":"😀"}'] },
    { name: 'whitespace everywhere', body: ' \n{ "puts" :\t[ { "value" : 12 } , { "value":"a" } ] } \r\n', expected: ['12', '"a"'] },
    { name: 'empty puts', body: '{"puts":[]}', expected: [] },
    { name: 'empty objects', body: '{"puts":[{},{"value":{}}]}', expected: [undefined, '{}'] },
    { name: 'puts that is not an array', body: '{"puts":{"value":1}}', expected: [] },
    { name: 'a body that is not an object', body: '[{"puts":[]}]', expected: [] },
  ];
  for (const c of cases) {
    it(c.name, () => {
      JSON.parse(c.body); // the precondition
      assert.deepEqual(rawPutValues(c.body), c.expected);
    });
  }

  it('finds values whose parse agrees with JSON.parse for every put', () => {
    const body = JSON.stringify({ puts: [{ value: { deep: [[[{ a: '}' }]]] } }, { value: 'x\n"y' }, { value: 1.25 }] }, null, 2);
    const parsed = (JSON.parse(body) as { puts: { value: unknown }[] }).puts.map((p) => p.value);
    assert.deepEqual(rawPutValues(body).map((raw) => JSON.parse(raw ?? 'null') as unknown), parsed);
  });
});
