import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { decodeStoredValue, encodeStoredValue } from './stored-value.js';

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
