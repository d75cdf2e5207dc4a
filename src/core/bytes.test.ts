import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { byteStringOf, bytesFrom, bytesToBuffer, startsWithAscii } from './bytes.js';

const EVERY_BYTE = Buffer.from(Array.from({ length: 256 }, (_, b) => b));

describe('bytes', () => {
  it('keeps every byte value through a byte string and back', () => {
    const s = byteStringOf(EVERY_BYTE, 0, 256);
    assert.equal(s.length, 256);
    assert.ok(bytesToBuffer(s).equals(EVERY_BYTE));
    assert.ok(bytesToBuffer(byteStringOf(EVERY_BYTE, 10, 20)).equals(EVERY_BYTE.subarray(10, 20)));
    // UTF-8 text survives as its bytes, not as its characters.
    const utf8 = Buffer.from('Café 😀', 'utf8');
    assert.equal(bytesToBuffer(byteStringOf(utf8, 0, utf8.length)).toString('utf8'), 'Café 😀');
  });

  it('hands a Buffer back as it is', () => {
    assert.equal(bytesToBuffer(EVERY_BYTE), EVERY_BYTE);
  });

  it('matches an ASCII prefix in either form', () => {
    const buf = Buffer.from('xml<VAST/>');
    const str = byteStringOf(buf, 0, buf.length);
    for (const b of [buf, str]) {
      assert.equal(startsWithAscii(b, 'xml'), true);
      assert.equal(startsWithAscii(b, 'json'), false);
      assert.equal(startsWithAscii(b, 'xml<VAST/>!'), false, 'longer than the bytes');
    }
    assert.equal(startsWithAscii(Buffer.alloc(0), ''), true);
  });

  it('takes the bytes from an offset without changing them', () => {
    const buf = Buffer.from([0x6a, 0x73, 0xff, 0x00, 0x80]);
    const str = byteStringOf(buf, 0, buf.length);
    assert.deepEqual([...bytesFrom(buf, 2)], [0xff, 0x00, 0x80]);
    assert.ok(bytesToBuffer(bytesFrom(str, 2)).equals(buf.subarray(2)));
  });
});
