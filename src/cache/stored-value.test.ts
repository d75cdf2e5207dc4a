import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { createReusableEncoder, decodeStoredValue, encodeStoredValue } from './stored-value.js';

describe('stored value format', () => {
  it('prefixes the type as Prebid Cache does', () => {
    assert.equal(encodeStoredValue('xml', '<VAST/>').toString(), 'xml<VAST/>');
    assert.equal(encodeStoredValue('json', '{"a":1}').toString(), 'json{"a":1}');
  });

  it('encodes multibyte text in an exactly sized buffer', () => {
    const b = encodeStoredValue('xml', '<VAST>é</VAST>');
    assert.equal(b.toString(), 'xml<VAST>é</VAST>');
    assert.equal(b.length, 18);
  });

  it('reusable encoder: the values of one batch stay intact, across growth of its buffer', () => {
    const encoder = createReusableEncoder(16);
    encoder.reset();
    const texts = ['<a/>', 'é€😀', 'x'.repeat(40), '{"k":"ü"}'];
    const values = texts.map((t, i) => encoder.encode(i === 3 ? 'json' : 'xml', t));
    assert.deepEqual(
      values.map((v) => v.toString()),
      texts.map((t, i) => `${i === 3 ? 'json' : 'xml'}${t}`),
    );
    assert.deepEqual(values.map((v) => v.length), values.map((v) => Buffer.byteLength(v.toString())));
    assert.ok(new Set(values.map((v) => v.buffer)).size > 1, 'expected the buffer to have grown within the batch');
  });

  it('reusable encoder: a new batch reuses the buffer of the last one', () => {
    const encoder = createReusableEncoder(1024);
    encoder.reset();
    const first = encoder.encode('xml', 'first');
    encoder.reset();
    const second = encoder.encode('xml', 'other');
    assert.equal(second.toString(), 'xmlother');
    assert.equal(first.buffer, second.buffer);
    assert.equal(first.toString(), 'xmlother', 'the earlier value is overwritten: valid only until reset');
  });

  it('round-trips type and body', () => {
    for (const [type, text] of [['xml', '<VAST>😀</VAST>'], ['json', '"x"'], ['xml', ''], ['json', 'null'], ['xml', 'json-looking']] as const) {
      const decoded = decodeStoredValue(encodeStoredValue(type, text));
      assert.equal(decoded?.type, type);
      assert.equal(decoded?.body.toString(), text);
    }
  });

  it('does not recognise data with neither prefix', () => {
    assert.equal(decodeStoredValue(Buffer.from('yaml: 1')), undefined);
    assert.equal(decodeStoredValue(Buffer.from('xm')), undefined);
  });
});
