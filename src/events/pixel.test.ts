import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { inflateSync } from 'node:zlib';
import { TRANSPARENT_PIXEL_PNG, crc32 } from './pixel.js';

/** A small PNG reader: checks the signature and every chunk's CRC, returns IHDR and the inflated image data. */
const readPng = (png: Buffer) => {
  assert.deepEqual([...png.subarray(0, 8)], [0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a], 'PNG signature');
  const chunks: { type: string; data: Buffer }[] = [];
  for (let at = 8; at < png.length; ) {
    const length = png.readUInt32BE(at);
    const type = png.toString('latin1', at + 4, at + 8);
    const data = png.subarray(at + 8, at + 8 + length);
    assert.equal(png.readUInt32BE(at + 8 + length), crc32(png.subarray(at + 4, at + 8 + length)), `CRC of ${type}`);
    chunks.push({ type, data });
    at += 12 + length;
  }
  const ihdr = chunks[0];
  assert.equal(ihdr?.type, 'IHDR');
  assert.equal(chunks.at(-1)?.type, 'IEND');
  const idat = Buffer.concat(chunks.filter((c) => c.type === 'IDAT').map((c) => c.data));
  return { width: ihdr.data.readUInt32BE(0), height: ihdr.data.readUInt32BE(4), bitDepth: ihdr.data[8], colourType: ihdr.data[9], pixels: inflateSync(idat) };
};

describe('transparent pixel', () => {
  it('is a valid 1x1 RGBA PNG whose only pixel is fully transparent', () => {
    const png = readPng(TRANSPARENT_PIXEL_PNG);
    assert.equal(png.width, 1);
    assert.equal(png.height, 1);
    assert.equal(png.bitDepth, 8);
    assert.equal(png.colourType, 6);
    assert.deepEqual([...png.pixels], [0, 0, 0, 0, 0]); // filter byte, then R G B A = 0
  });

  it('computes the standard CRC-32', () => {
    assert.equal(crc32(Buffer.from('123456789')), 0xcbf43926);
    assert.equal(crc32(Buffer.from('IEND')), 0xae426082);
  });
});
