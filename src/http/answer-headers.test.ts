import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { answerFields, createAnswerHeadWriter } from './answer-headers.js';

describe('createAnswerHeadWriter', () => {
  it('writes the status line, the headers of every answer, the CORS echo, type, length, Date and keep-alive', () => {
    const write = createAnswerHeadWriter(72_500, () => Date.UTC(2026, 10, 23, 12, 0, 1, 500));
    assert.equal(
      write({ status: 404, contentType: 'text/plain; charset=utf-8', body: 'x' }, 1, 'https://pub.example'),
      'HTTP/1.1 404 Not Found\r\nvary: Origin, Accept-Encoding\r\ncache-control: no-cache\r\nx-content-type-options: nosniff\r\n' +
        'access-control-allow-origin: https://pub.example\r\naccess-control-allow-credentials: true\r\n' +
        'content-type: text/plain; charset=utf-8\r\ncontent-length: 1\r\n' +
        'Date: Mon, 23 Nov 2026 12:00:01 GMT\r\nConnection: keep-alive\r\nKeep-Alive: timeout=72\r\n\r\n',
    );
  });

  it('leaves out what an answer does not have, and names a status Node does not know "unknown"', () => {
    const head = createAnswerHeadWriter(5000, () => 0)({ status: 299 }, 0, undefined);
    assert.ok(head.startsWith('HTTP/1.1 299 unknown\r\nvary: Origin, Accept-Encoding\r\n'));
    assert.ok(!head.includes('\r\ncontent-type:') && !head.includes('access-control'));
    assert.ok(head.includes('content-length: 0\r\nDate: Thu, 01 Jan 1970 00:00:00 GMT\r\n'));
  });

  it('formats the Date once a second, and anew as soon as the second changes', () => {
    let now = Date.UTC(2026, 10, 23, 12, 0, 1, 0);
    let reads = 0;
    const write = createAnswerHeadWriter(5000, () => {
      reads++;
      return now;
    });
    const dateOf = (): string => /Date: ([^\r]*)/.exec(write({ status: 200 }, 0, undefined))?.[1] ?? '';
    assert.equal(dateOf(), 'Mon, 23 Nov 2026 12:00:01 GMT');
    now += 999;
    assert.equal(dateOf(), 'Mon, 23 Nov 2026 12:00:01 GMT');
    now += 1;
    assert.equal(dateOf(), 'Mon, 23 Nov 2026 12:00:02 GMT');
    assert.equal(reads, 3);
  });

  it('sends no Content-Length with a 204 or 304, as Fastify does (RFC 9110 8.6)', () => {
    const write = createAnswerHeadWriter(5000, () => 0);
    assert.ok(!write({ status: 204 }, 0, undefined).includes('content-length'));
    assert.ok(!write({ status: 304 }, 0, undefined).includes('content-length'));
  });
});

describe('answerFields', () => {
  it('lists the same headers in the same order as the wire head', () => {
    const answer = { status: 200, contentType: 'application/json', body: '{}' };
    const fields = answerFields(answer, 2, 'https://pub.example');
    const lines = createAnswerHeadWriter(5000, () => 0)(answer, 2, 'https://pub.example').split('\r\n').slice(1, 1 + fields.length / 2);
    const pairs: string[] = [];
    for (let i = 0; i < fields.length; i += 2) pairs.push(`${fields[i] ?? ''}: ${fields[i + 1] ?? ''}`);
    assert.deepEqual(pairs, lines);
    assert.deepEqual(answerFields({ status: 204 }, 0, undefined), ['vary', 'Origin, Accept-Encoding', 'cache-control', 'no-cache', 'x-content-type-options', 'nosniff']);
  });

  it("puts a route's own headers after the CORS echo and before Content-Type, on both forms alike", () => {
    const answer = { status: 200, contentType: 'application/json', body: '{}', headers: ['amp-access-control-allow-source-origin', 'https://pub.example', 'access-control-expose-headers', 'AMP-Access-Control-Allow-Source-Origin'] };
    const fields = answerFields(answer, 2, 'https://cdn.example');
    assert.deepEqual(fields.slice(6, 14), ['access-control-allow-origin', 'https://cdn.example', 'access-control-allow-credentials', 'true', ...answer.headers]);
    const lines = createAnswerHeadWriter(5000, () => 0)(answer, 2, 'https://cdn.example').split('\r\n').slice(1, 1 + fields.length / 2);
    const pairs: string[] = [];
    for (let i = 0; i < fields.length; i += 2) pairs.push(`${fields[i] ?? ''}: ${fields[i + 1] ?? ''}`);
    assert.deepEqual(pairs, lines);
  });
});
