import assert from 'node:assert/strict';
import { createServer } from 'node:http';
import type { Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { after, before, describe, it } from 'node:test';
import { connect } from 'node:net';
import { INCOMPLETE, readRequestHead } from '../../src/http/request-head.js';
import type { RequestHead } from '../../src/http/request-head.js';
import { prng } from '../support/prng.js';
import { openRaw } from '../support/raw-http.js';

/**
 * The socket lane's reader must never read a request differently from node:http's parser (llhttp):
 * a head it accepts must be one llhttp accepts too, with the same method, target, fields and
 * body length, or the two could disagree on where a request ends (request smuggling). Requests
 * below are valid ones with random bytes inserted, replaced or removed; every mutant the reader
 * accepts is sent to a plain node:http server, which reports what it read.
 *
 * Nor may it wait for more bytes where llhttp has already refused: then node:http's prompt 400
 * would become a 408 after `headers_timeout_ms` on the lane. Heads with bare LF, bare CR and
 * mixed line ends, whole or cut short, that the reader waits on are sent to node:http, which
 * must not answer them either.
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

/** Line ends as clients get them wrong: every one LF, every one CR, or each picked at random. */
const LINE_ENDS = ['\r\n', '\n', '\r'] as const;

/** A base request with its head's line ends changed, perhaps mutated, perhaps cut short. */
const reEnd = (text: string, random: () => number): string => {
  const bodyAt = text.indexOf('\r\n\r\n') + 4;
  const style = random();
  const pick = (): string => {
    if (style < 0.25) return '\n';
    if (style < 0.4) return '\r';
    if (style < 0.5) return '\r\n';
    return LINE_ENDS[Math.floor(random() * LINE_ENDS.length)] ?? '\r\n';
  };
  let out = text.slice(0, bodyAt).replace(/\r\n/g, pick) + text.slice(bodyAt);
  if (random() < 0.4) out = mutate(out, random);
  if (random() < 0.6) out = out.slice(0, 1 + Math.floor(random() * out.length));
  return out;
};

/** How long node:http is given to answer a head it refuses: it does so in a few milliseconds. */
const ANSWER_WINDOW_MS = 250;

/**
 * Whether node:http, sent `bytes` on a fresh connection, answers or closes it within
 * ANSWER_WINDOW_MS (a machine too busy to answer in time can only hide a difference, not invent one).
 */
const nodeAnswersAtOnce = (port: number, bytes: Buffer): Promise<boolean> =>
  new Promise((resolve) => {
    const socket = connect(port, '127.0.0.1');
    let done = false;
    const finish = (answered: boolean): void => {
      if (done) return;
      done = true;
      clearTimeout(timer);
      socket.destroy();
      resolve(answered);
    };
    const timer = setTimeout(() => finish(false), ANSWER_WINDOW_MS);
    socket.on('connect', () => socket.write(bytes));
    socket.on('data', () => finish(true));
    socket.on('close', () => finish(true));
    socket.on('error', () => finish(true));
  });

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

  it('with bare LF, bare CR or mixed line ends, whole or cut short: it waits for more only where node:http does (1,500 tried, seeded)', async () => {
    const random = prng(20261125);
    const waiting: string[] = [
      // The head of issue 24 and its kin, always tried.
      'GET /status HTTP/1.1\nHost: x\n\n',
      'GET /status HTTP/1.1\rHost: x\r\r',
      'GET /status HTTP/1.1\r\nHost: x\n\r\n',
    ];
    let refused = 0;
    const deadline = Date.now() + 60_000;
    for (let i = 0; i < 1500 && Date.now() < deadline; i++) waiting.push(reEnd(BASES[i % BASES.length] ?? '', random));
    const incomplete: string[] = [];
    for (const text of waiting) {
      const head = readRequestHead(Buffer.from(text, 'latin1'));
      if (head === INCOMPLETE) incomplete.push(text);
      else if (typeof head !== 'object') refused++;
      else {
        // What it accepts, node:http must read the same (the mutants above check how).
        const c = await openRaw(port);
        const framed = text.slice(0, head.headBytes + head.contentLength);
        // A body cut short is made whole: what is compared is the head.
        c.write(Buffer.from(framed.padEnd(head.headBytes + head.contentLength, 'b'), 'latin1'));
        const [answer] = await c.answers(1);
        c.socket.destroy();
        assert.equal(answer?.status, 200, `node:http refused what the lane accepted: ${JSON.stringify(text)}`);
        assert.equal((JSON.parse(answer.body.toString('utf8')) as SeenByNode).url, head.target, JSON.stringify(text));
      }
    }
    // 25 connections at a time, each given ANSWER_WINDOW_MS: bounded by the case count.
    for (let from = 0; from < incomplete.length && Date.now() < deadline; from += 25) {
      const batch = incomplete.slice(from, from + 25);
      const answered = await Promise.all(batch.map((text) => nodeAnswersAtOnce(port, Buffer.from(text, 'latin1'))));
      answered.forEach((atOnce, i) => assert.ok(!atOnce, `node:http answers at once what the lane waits on: ${JSON.stringify(batch[i])}`));
    }
    // Both sides must be exercised: heads refused at once, and heads cut short that both wait on.
    assert.ok(refused >= 300, `only ${String(refused)} refused`);
    assert.ok(incomplete.length >= 100, `only ${String(incomplete.length)} waited on`);
  });
});
