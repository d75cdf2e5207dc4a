import assert from 'node:assert/strict';
import { createServer } from 'node:http';
import type { Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { after, before, describe, it } from 'node:test';
import { readRequestHead } from '../../src/http/request-head.js';
import type { RequestHead } from '../../src/http/request-head.js';
import { prng } from '../support/prng.js';
import { openRaw } from '../support/raw-http.js';

/**
 * The socket lane's reader must never read a request differently from node:http's parser (llhttp):
 * a head it accepts must be one llhttp accepts too, with the same method, target, fields and
 * body length, or the two could disagree on where a request ends (request smuggling). Requests
 * below are valid ones with random bytes inserted, replaced or removed; every mutant the reader
 * accepts is sent to a plain node:http server, which reports what it read.
 */

const BASES = [
  'GET /cache?uuid=abc HTTP/1.1\r\nHost: x\r\nUser-Agent: fuzz\r\nOrigin: https://a.example\r\n\r\n',
  'POST /cache HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\nContent-Length: 11\r\n\r\n{"puts":[]}',
  'POST /vtrack?a=1 HTTP/1.1\r\nhost: x\r\ncontent-length: 2\r\nconnection: keep-alive\r\n\r\n{}',
];
/** Bytes that matter to framing, and some that do not. */
const ALPHABET = ['\r', '\n', '\r\n', ' ', '\t', ':', '\x00', '\x0b', '\x7f', '\x80', '\xff', ',', '0', '9', '-', 'a', 'Z', '/', '?', '#', '%', 'Content-Length: 1\r\n', 'Transfer-Encoding: chunked\r\n', 'Host: y\r\n', '\r\n '];

const mutate = (text: string, random: () => number): string => {
  let out = text;
  const edits = 1 + Math.floor(random() * 3);
  for (let e = 0; e < edits; e++) {
    const at = Math.floor(random() * out.length);
    const piece = ALPHABET[Math.floor(random() * ALPHABET.length)] ?? '';
    const kind = random();
    if (kind < 0.4) out = out.slice(0, at) + piece + out.slice(at);
    else if (kind < 0.8) out = out.slice(0, at) + piece + out.slice(at + 1);
    else out = out.slice(0, at) + out.slice(at + 1);
  }
  return out;
};

interface SeenByNode {
  method: string;
  url: string;
  headers: Record<string, string | string[] | undefined>;
  bodyBytes: number;
}

describe('the socket lane reads a request head as node:http does', () => {
  let server: Server;
  let port: number;
  before(async () => {
    server = createServer((req, res) => {
      let bodyBytes = 0;
      req.on('data', (c: Buffer) => (bodyBytes += c.length));
      req.on('end', () => {
        const seen: SeenByNode = { method: req.method ?? '', url: req.url ?? '', headers: req.headers, bodyBytes };
        const body = JSON.stringify(seen);
        res.writeHead(200, { 'content-type': 'application/json', 'content-length': Buffer.byteLength(body) }).end(body);
      });
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    port = (server.address() as AddressInfo).port;
  });
  after(async () => {
    server.closeAllConnections();
    await new Promise((resolve) => server.close(resolve));
  });

  it('for every mutant of a valid request that it accepts (2,000 tried, seeded)', async () => {
    const random = prng(20261123);
    let accepted = 0;
    const deadline = Date.now() + 60_000;
    for (let i = 0; i < 2000 && Date.now() < deadline; i++) {
      const text = mutate(BASES[i % BASES.length] ?? '', random);
      const bytes = Buffer.from(text, 'latin1');
      const head = readRequestHead(bytes);
      if (typeof head !== 'object') continue;
      accepted++;
      const c = await openRaw(port);
      // Exactly the request the reader framed: its head and as many body bytes as it counts.
      const framed = Buffer.concat([bytes.subarray(0, head.headBytes + head.contentLength), Buffer.alloc(Math.max(0, head.headBytes + head.contentLength - bytes.length), 'b')]);
      c.write(framed);
      const [answer] = await c.answers(1);
      c.socket.destroy();
      assert.equal(answer?.status, 200, `node:http refused what the lane accepted: ${JSON.stringify(text)}`);
      const seen = JSON.parse(answer.body.toString('utf8')) as SeenByNode;
      const expected: RequestHead = head;
      assert.equal(seen.method, expected.method, JSON.stringify(text));
      assert.equal(seen.url, expected.target, JSON.stringify(text));
      assert.deepEqual(seen.headers, { ...expected.headers }, JSON.stringify(text));
      assert.equal(seen.bodyBytes, expected.contentLength, JSON.stringify(text));
    }
    // The mutants must exercise the accepting side too, not only refusals.
    assert.ok(accepted >= 200, `only ${String(accepted)} mutants accepted`);
  });
});
