import assert from 'node:assert/strict';
import { createServer } from 'node:http';
import type { Server, ServerResponse } from 'node:http';
import { after, before, describe, it } from 'node:test';
import { sequentialIds } from '../../src/core/ids.js';
import { buildTestApp } from '../support/app.js';
import type { TestApp } from '../support/app.js';
import { freePort } from '../support/ports.js';

const VAST = '<VAST version="3.0"><Ad><InLine><Impression><![CDATA[https://a.example/i]]></Impression></InLine></Ad></VAST>';
const put = (bidid: string) => ({ bidid, bidder: 'appnexus', type: 'xml', value: VAST, aid: 'auc', timestamp: 1, ttlseconds: 60 });

const listen = async (app: TestApp): Promise<string> => {
  const address = await app.server.listen({ host: '127.0.0.1', port: 0 });
  return address;
};

/** A raw HTTP server answering every request with `handler`. */
const rawServer = async (handler: Parameters<typeof createServer>[1]): Promise<{ url: string; server: Server }> => {
  const server = createServer(handler);
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  const address = server.address();
  return { url: `http://127.0.0.1:${typeof address === 'object' && address ? address.port : 0}/cache`, server };
};

describe('/vtrack with auction.cache.url (a remote Prebid-Cache-compatible server)', () => {
  let cacheServer: TestApp;
  let cacheUrl: string;
  let app: TestApp;

  before(async () => {
    // The remote: a second openbid instance on 127.0.0.1, serving /cache.
    // Its ids start at 0xabc000, so they cannot be mistaken for ids of the app under test.
    cacheServer = await buildTestApp({}, { ids: sequentialIds(0xabc000) });
    cacheUrl = `${await listen(cacheServer)}/cache`;
    app = await buildTestApp({ auction: { cache: { url: cacheUrl } } });
  });
  after(async () => {
    await app.close();
    await cacheServer.close();
  });

  it('writes the modified VAST to the remote, and reads it back from there', async () => {
    const res = await app.server.inject({ method: 'POST', url: '/vtrack?a=acc', payload: JSON.stringify({ puts: [put('b1'), put('b2')] }) });
    assert.equal(res.statusCode, 200, res.body);
    const uuids = res.json<{ responses: { uuid: string }[] }>().responses.map((r) => r.uuid);
    assert.equal(uuids.length, 2);
    assert.deepEqual(uuids, ['00000000-0000-4000-8000-000000abc000', '00000000-0000-4000-8000-000000abc001'], 'the ids come from the remote');

    const remote = await fetch(`${cacheUrl}?uuid=${uuids[1] ?? ''}`);
    assert.equal(remote.headers.get('content-type'), 'application/xml');
    const stored = await remote.text();
    assert.ok(stored.includes('<Impression><![CDATA[http://localhost:8000/event?t=imp&b=b2&a=acc&aid=auc&ts=1&bidder=appnexus&f=b]]></Impression>'), stored);

    const local = await app.server.inject({ method: 'GET', url: `/cache?uuid=${uuids[1] ?? ''}` });
    assert.equal(local.statusCode, 404, 'nothing was written to the local cache');

    const proxied = await app.server.inject({ method: 'GET', url: `/vtrack?a=acc?uuid=${uuids[1] ?? ''}` });
    assert.equal(proxied.statusCode, 200);
    assert.equal(proxied.headers['content-type'], 'application/xml');
    assert.equal(proxied.body, stored);

    const missing = await app.server.inject({ method: 'GET', url: '/vtrack?uuid=00000000-0000-4000-8000-0000000fffff' });
    assert.equal(missing.statusCode, 404);
  });

  it('passes on a refusal by the remote as 400', async () => {
    const small = await buildTestApp({ cache: { request_limits: { max_size_bytes: 50 } } });
    const url = `${await listen(small)}/cache`;
    const client = await buildTestApp({ auction: { cache: { url } } });
    try {
      const res = await client.server.inject({ method: 'POST', url: '/vtrack?a=acc', payload: JSON.stringify({ puts: [put('b1')] }) });
      assert.equal(res.statusCode, 400);
      assert.match(res.body, /^the cache refused the puts \(400\): POST \/cache element 0 exceeded max size/);
    } finally {
      await client.close();
      await small.close();
    }
  });

  it('answers 503 quickly when the remote cannot be reached', async () => {
    const client = await buildTestApp({ auction: { cache: { url: `http://127.0.0.1:${await freePort()}/cache` } } });
    try {
      const res = await client.server.inject({ method: 'POST', url: '/vtrack?a=acc', payload: JSON.stringify({ puts: [put('b1')] }) });
      assert.equal(res.statusCode, 503);
      assert.match(res.body, /cannot be reached/);
    } finally {
      await client.close();
    }
  });

  it('answers 504 within auction.cache.timeout_ms when the remote hangs', async () => {
    const hung = await rawServer(() => undefined);
    const client = await buildTestApp({ auction: { cache: { url: hung.url, timeout_ms: 150 } } });
    try {
      const started = Date.now();
      const res = await client.server.inject({ method: 'POST', url: '/vtrack?a=acc', payload: JSON.stringify({ puts: [put('b1')] }) });
      assert.equal(res.statusCode, 504);
      assert.ok(Date.now() - started < 1000, `took ${Date.now() - started} ms`);
    } finally {
      await client.close();
      hung.server.closeAllConnections();
      hung.server.close();
    }
  });

  it('answers 503 when the remote answers 5xx or without one uuid per put', async () => {
    const answers = [
      (res: ServerResponse) => res.writeHead(500).end('boom'),
      (res: ServerResponse) => res.writeHead(200, { 'content-type': 'application/json' }).end('{"responses":[]}'),
      (res: ServerResponse) => res.writeHead(200).end('not json'),
    ];
    for (const answer of answers) {
      const bad = await rawServer((req, res) => {
        req.resume();
        req.on('end', () => answer(res));
      });
      const client = await buildTestApp({ auction: { cache: { url: bad.url } } });
      try {
        const res = await client.server.inject({ method: 'POST', url: '/vtrack?a=acc', payload: JSON.stringify({ puts: [put('b1')] }) });
        assert.equal(res.statusCode, 503, res.body);
      } finally {
        await client.close();
        bad.server.closeAllConnections();
        bad.server.close();
      }
    }
  });
});
