import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { gunzipSync } from 'node:zlib';
import { byteStringOf } from '../core/bytes.js';
import { bytesAnswer } from './answer.js';
import type { Answer, AnswerRequest } from './answer.js';
import { acceptsGzip, compressing, gzipAnswer } from './compression.js';

describe('Accept-Encoding', () => {
  it('accepts gzip when named with a weight above 0, or left to a wildcard above 0', () => {
    for (const yes of ['gzip', 'GZip', 'x-gzip', 'gzip, deflate, br, zstd', ' br ;q=1 , gzip ; q=0.001', 'gzip;q=1.000', '*', '*;q=0.1', 'deflate;q=0, *;q=0.5', 'gzip;level=9;q=0.5']) {
      assert.equal(acceptsGzip(yes), true, yes);
    }
  });

  it('refuses it when absent, weighed 0 (whatever a wildcard says), or weighed with a malformed q', () => {
    for (const no of [undefined, '', 'identity', 'br, deflate', 'gzip;q=0', 'gzip; q=0.000', 'gzip;q=0, *', '*;q=0', 'gzip;q=1.5', 'gzip;q=abc', 'gzip;q=', 'gzipx', 'x-gzip;q=0, *;q=1']) {
      assert.equal(acceptsGzip(no), false, String(no));
    }
  });
});

describe('gzipAnswer', () => {
  const text = (n: number): string => `{"v":"${'é 😀 '.repeat(n)}"}`;

  it('leaves an answer under min_bytes (or without a body) as it is', () => {
    const small: Answer = { status: 200, contentType: 'application/json', body: text(10) };
    assert.equal(gzipAnswer(small, 1000), small);
    const empty: Answer = { status: 204 };
    assert.equal(gzipAnswer(empty, 0), empty);
  });

  it('gzips a text body on the event loop: its UTF-8 bytes, Content-Encoding after the route headers', () => {
    const answer: Answer = { status: 200, contentType: 'application/json', headers: ['x-own', '1'], body: text(500) };
    const out = gzipAnswer(answer, 100);
    assert.ok(!(out instanceof Promise));
    assert.deepEqual(out.headers, ['x-own', '1', 'content-encoding', 'gzip']);
    assert.equal(out.contentType, 'application/json');
    assert.ok(Buffer.isBuffer(out.body));
    assert.equal(gunzipSync(out.body).toString('utf8'), answer.body);
  });

  it('gzips a byte string as its bytes, and a large body in the thread pool', async () => {
    const bytes = Buffer.from(text(200), 'utf8');
    const latin1 = bytesAnswer(200, 'application/json', byteStringOf(bytes, 0, bytes.length));
    const out = gzipAnswer(latin1, 1);
    assert.ok(!(out instanceof Promise) && Buffer.isBuffer(out.body));
    assert.deepEqual(gunzipSync(out.body), bytes);

    const large: Answer = { status: 200, contentType: 'application/json', body: text(20_000) };
    const pending = gzipAnswer(large, 1);
    assert.ok(pending instanceof Promise, 'over 64 KiB: in the pool');
    const done = await pending;
    assert.ok(Buffer.isBuffer(done.body));
    assert.equal(gunzipSync(done.body).toString('utf8'), large.body);
    assert.deepEqual(done.headers, ['content-encoding', 'gzip']);
  });
});

describe('compressing', () => {
  const request = (acceptEncoding?: string): AnswerRequest => ({ query: {}, headers: acceptEncoding === undefined ? {} : { 'accept-encoding': acceptEncoding }, ip: '127.0.0.1' });
  const answer: Answer = { status: 200, contentType: 'application/json', body: 'x'.repeat(2000) };

  it('off, or a request that does not accept gzip: the handler as it is, its very answer', () => {
    const handler = (): Answer => answer;
    assert.equal(compressing(handler, undefined), handler);
    const wrapped = compressing(handler, { minBytes: 100 });
    assert.equal(wrapped(request()), answer);
    assert.equal(wrapped(request('br')), answer);
  });

  it('a request that accepts gzip: the answer gzipped, whether the handler answered at once or later; its errors pass through', async () => {
    const direct = compressing(() => answer, { minBytes: 100 })(request('gzip'));
    assert.ok(!(direct instanceof Promise) && direct.headers?.includes('content-encoding'));
    const later = await compressing(async () => answer, { minBytes: 100 })(request('gzip'));
    assert.ok(Buffer.isBuffer(later.body));
    assert.equal(gunzipSync(later.body).toString(), answer.body);
    await assert.rejects(async () => compressing(async (): Promise<Answer> => Promise.reject(new Error('boom')), { minBytes: 1 })(request('gzip')), /boom/);
  });
});
