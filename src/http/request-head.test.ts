import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { INCOMPLETE, MAX_HEAD_BYTES, UNSUPPORTED, readRequestHead } from './request-head.js';
import type { RequestHead } from './request-head.js';

const read = (text: string) => readRequestHead(Buffer.from(text, 'latin1'));
const served = (text: string): RequestHead => {
  const head = read(text);
  assert.ok(typeof head === 'object', `served: ${JSON.stringify(text)}`);
  return head;
};

describe('readRequestHead', () => {
  it('reads a plain GET: method, target as sent, lower-case names, where the body starts', () => {
    const text = 'GET /cache?uuid=a%20b&x=1 HTTP/1.1\r\nHost: x\r\nUser-Agent: wrk\r\n\r\n';
    const head = served(text + 'NEXT');
    assert.equal(head.method, 'GET');
    assert.equal(head.target, '/cache?uuid=a%20b&x=1');
    assert.deepEqual({ ...head.headers }, { host: 'x', 'user-agent': 'wrk' });
    assert.equal(head.contentLength, 0);
    assert.equal(head.headBytes, text.length);
  });

  it('reads a POST with its Content-Length, and trims blanks around values only', () => {
    const head = served('POST /cache HTTP/1.1\r\nHOST:x\r\nContent-Type: \t application/json \t\r\nContent-Length: 0012\r\nX-Empty:\r\n\r\n');
    assert.equal(head.method, 'POST');
    assert.equal(head.contentLength, 12);
    assert.equal(head.headers['content-type'], 'application/json');
    assert.equal(head.headers['x-empty'], '');
  });

  it('keeps bytes 0x80-0xff of values as they are (latin1), as node:http does', () => {
    const head = served('GET / HTTP/1.1\r\nHost: x\r\nOrigin: https://caf\xe9.example\r\n\r\n');
    assert.equal(head.headers.origin, 'https://caf\xe9.example');
  });

  it('accepts Connection: keep-alive, and a header named like an Object property', () => {
    const head = served('GET / HTTP/1.1\r\nHost: x\r\nConnection: Keep-Alive\r\n__proto__: 1\r\nconstructor: 2\r\n\r\n');
    assert.equal(head.headers.__proto__, '1');
    assert.equal(head.headers.constructor, '2');
  });

  it('waits for the rest of a head that has not all arrived', () => {
    for (const part of ['', 'G', 'GET', 'POST /ca', 'GET / HTTP/1.1\r\nHost: x\r\n', 'GET / HTTP/1.1\r\nHost: x\r\n\r']) {
      assert.equal(read(part), INCOMPLETE, JSON.stringify(part));
    }
  });

  it('gives up at once on bytes that cannot become a GET or POST, without waiting for more', () => {
    for (const part of ['\x16\x03\x01\x02\x00', 'PUT /x', 'P', 'GE /', 'POS', 'GET http:']) {
      assert.equal(read(part), part === 'P' || part === 'POS' ? INCOMPLETE : UNSUPPORTED, JSON.stringify(part));
    }
  });

  // llhttp refuses each of these at the byte shown, and node:http answers 400 at once: the lane
  // must not wait for a CRLF CRLF that may never come (before, it did until headers_timeout_ms).
  it('gives up at once on the start of a head that llhttp refuses already', () => {
    const refused = [
      'GET /status HTTP/1.1\nHost: x\n\n',
      'GET /status HTTP/1.1\n',
      'GET /status HTTP/1.1\r\nHost: x\n\n',
      'GET /status HTTP/1.1\r\nHost: x\r\n\n',
      'GET /status HTTP/1.1\rHost: x\r\r',
      'GET /status HTTP/1.1\r\nHost: x\r\rX: y',
      'GET /status HTTP/1.1\r\nHost: x\r\nX: a\nb',
      'GET /status HTTP/1.1\r\nHost: x\x00',
      'POST /cache HTTP/1.1\r\nHost: x\r\nContent-Length: 2\n\n{}',
      'GET /sta\ntus',
      'GET /a b',
      'GET /status HTTP/1.2',
      'GET /status HTTP/1.1x',
      'GET /status HTTP/1.0\r\nHo',
      'GET /status HTTP/1.1\r\nHo st',
      'GET /status HTTP/1.1\r\nHost\r\n',
      'GET /status HTTP/1.1\r\n: x',
      'GET /status HTTP/1.1\r\nHost: x\r\n folded',
      'GET /status HTTP\r',
      'GET /status HTTP/1.1\r\nHost: x\r\nX\r',
      'POST /cache HTTP/1.1\r\nHost: x\r\nContent-Length: -1',
      'POST /cache HTTP/1.1\r\nHost: x\r\nContent-Length: 2#',
      'POST /cache HTTP/1.1\r\nHost: x\r\nContent-Length: 1 2',
      'POST /cache HTTP/1.1\r\nHost: x\r\ncontent-length: \r\nX: y',
      'POST /cache HTTP/1.1\r\nHost: x\r\nContent-Length: 1\r\ncontent-length: 1',
      'POST /cache HTTP/1.1\r\nHost: x\r\nContent-Length: 1\r\nTransfer-Encoding: chunked',
    ];
    for (const part of refused) assert.equal(read(part), UNSUPPORTED, JSON.stringify(part));
  });

  it('waits for the rest of a start that is still a head it reads, whatever the reads it came in', () => {
    const head = 'POST /cache?a=b HTTP/1.1\r\nHost: x\r\nContent-Type: text/plain\r\nContent-Length: 2\r\n\r\n';
    const bytes = Buffer.from(head, 'latin1');
    for (let n = 1; n < bytes.length; n++) {
      assert.equal(readRequestHead(bytes.subarray(0, n)), INCOMPLETE, JSON.stringify(head.slice(0, n)));
      // As the lane calls it: what an earlier read found a head's start is not searched again.
      for (const checked of [n - 1, Math.floor(n / 2), 1]) assert.equal(readRequestHead(bytes.subarray(0, n), checked), INCOMPLETE, `${JSON.stringify(head.slice(0, n))} after ${String(checked)}`);
    }
    assert.equal(typeof readRequestHead(bytes, bytes.length - 1), 'object');
  });

  it('finds a bare CR or LF that arrives after the bytes already checked, next to them', () => {
    const cases: [string, string][] = [
      ['GET / HTTP/1.1\r\nHost: x\r', '\r'],
      ['GET / HTTP/1.1\r\nHost: x\r', 'X'],
      ['GET / HTTP/1.1\r\nHost: x\r\n', '\n'],
      ['GET / HTTP/1.1\r\nHost: x', '\n'],
      ['GET / HTTP/1.1\r\nHost', '\r\n'],
      ['GET / HTTP/1.1\r\nHost: x\r\nX-A', ' b:'],
      ['GET / HTTP/1', '.0\r\n'],
      ['POST / HTTP/1.1\r\nHost: x\r\nContent-Length: 1', 'x'],
      ['POST / HTTP/1.1\r\nContent-Length: 1\r\nHost: x\r', '\nContent-Length:'],
    ];
    for (const [before, after] of cases) {
      const bytes = Buffer.from(before + after, 'latin1');
      assert.equal(readRequestHead(bytes.subarray(0, before.length)), INCOMPLETE, JSON.stringify(before));
      assert.equal(readRequestHead(bytes, before.length), UNSUPPORTED, JSON.stringify(before + after));
    }
  });

  it('gives up a head longer than node:http allows, ended or not', () => {
    const long = `GET / HTTP/1.1\r\nHost: x\r\nX: ${'a'.repeat(MAX_HEAD_BYTES)}`;
    assert.equal(read(long), UNSUPPORTED);
    assert.equal(read(`${long}\r\n\r\n`), UNSUPPORTED);
  });

  // Each of these is left to node:http: it either serves it or refuses it with its own status.
  const notMine: [string, string][] = [
    ['HEAD', 'HEAD / HTTP/1.1\r\nHost: x\r\n\r\n'],
    ['OPTIONS', 'OPTIONS / HTTP/1.1\r\nHost: x\r\n\r\n'],
    ['a lower-case method', 'get / HTTP/1.1\r\nHost: x\r\n\r\n'],
    ['HTTP/1.0', 'GET / HTTP/1.0\r\nHost: x\r\n\r\n'],
    ['HTTP/2 preface', 'PRI * HTTP/2.0\r\n\r\nSM\r\n\r\n'],
    ['an absolute-form target', 'GET http://x/ HTTP/1.1\r\nHost: x\r\n\r\n'],
    ['a fragment', 'GET /#a HTTP/1.1\r\nHost: x\r\n\r\n'],
    ['a non-ASCII target', 'GET /caf\xe9 HTTP/1.1\r\nHost: x\r\n\r\n'],
    ['two spaces in the request line', 'GET  / HTTP/1.1\r\nHost: x\r\n\r\n'],
    ['no Host', 'GET / HTTP/1.1\r\nX: y\r\n\r\n'],
    ['a bare LF ending a line', 'GET / HTTP/1.1\nHost: x\r\n\r\n'],
    ['a bare LF in a value', 'GET / HTTP/1.1\r\nHost: x\r\nX: a\nb\r\n\r\n'],
    ['a bare CR in a value', 'GET / HTTP/1.1\r\nHost: x\r\nX: a\rb\r\n\r\n'],
    ['a NUL in a value', 'GET / HTTP/1.1\r\nHost: x\r\nX: a\x00b\r\n\r\n'],
    ['DEL in a value', 'GET / HTTP/1.1\r\nHost: x\r\nX: a\x7fb\r\n\r\n'],
    ['a folded line', 'GET / HTTP/1.1\r\nHost: x\r\nX: a\r\n b\r\n\r\n'],
    ['a blank before the colon', 'POST / HTTP/1.1\r\nHost: x\r\nContent-Length : 5\r\n\r\nhello'],
    ['a line without a colon', 'GET / HTTP/1.1\r\nHost: x\r\nnonsense\r\n\r\n'],
    ['an empty name', 'GET / HTTP/1.1\r\nHost: x\r\n: v\r\n\r\n'],
    ['a repeated field', 'GET / HTTP/1.1\r\nHost: x\r\nhost: y\r\n\r\n'],
    ['two Content-Lengths', 'POST / HTTP/1.1\r\nHost: x\r\nContent-Length: 5\r\ncontent-length: 5\r\n\r\nhello'],
    ['a Content-Length list', 'POST / HTTP/1.1\r\nHost: x\r\nContent-Length: 5, 5\r\n\r\nhello'],
    ['a tab around a Content-Length', 'POST / HTTP/1.1\r\nHost: x\r\nContent-Length: 5\t\r\n\r\nhello'],
    ['a signed Content-Length', 'POST / HTTP/1.1\r\nHost: x\r\nContent-Length: +5\r\n\r\nhello'],
    ['a Content-Length too long to be exact', `POST / HTTP/1.1\r\nHost: x\r\nContent-Length: ${'9'.repeat(16)}\r\n\r\n`],
    ['Transfer-Encoding', 'POST / HTTP/1.1\r\nHost: x\r\nTransfer-Encoding: chunked\r\n\r\n5\r\nhello\r\n0\r\n\r\n'],
    ['Transfer-Encoding with Content-Length', 'POST / HTTP/1.1\r\nHost: x\r\nContent-Length: 3\r\nTransfer-Encoding: chunked\r\n\r\n0\r\n\r\n'],
    ['Expect', 'POST / HTTP/1.1\r\nHost: x\r\nExpect: 100-continue\r\nContent-Length: 5\r\n\r\n'],
    ['Upgrade', 'GET / HTTP/1.1\r\nHost: x\r\nConnection: keep-alive\r\nUpgrade: websocket\r\n\r\n'],
    ['Connection: close', 'GET / HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n'],
    ['Connection: upgrade', 'GET / HTTP/1.1\r\nHost: x\r\nConnection: upgrade\r\n\r\n'],
    ['a GET with a body', 'GET / HTTP/1.1\r\nHost: x\r\nContent-Length: 2\r\n\r\nhi'],
  ];
  for (const [what, text] of notMine) {
    it(`leaves ${what} to node:http`, () => {
      assert.equal(read(text), UNSUPPORTED);
    });
  }
});
