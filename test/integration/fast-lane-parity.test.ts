import assert from 'node:assert/strict';
import { request as httpRequest } from 'node:http';
import type { IncomingHttpHeaders } from 'node:http';
import { after, before, describe, it } from 'node:test';
import { request } from 'undici';
import { buildTestApp } from '../support/app.js';
import type { TestApp } from '../support/app.js';

// Headers that differ by transport, not by route: Node's connection management and the clock.
const TRANSPORT_HEADERS = new Set(['date', 'connection', 'keep-alive', 'transfer-encoding']);

const routeHeaders = (headers: Record<string, unknown>): Record<string, string> => {
  const kept: [string, string][] = Object.entries(headers)
    .filter(([name]) => !TRANSPORT_HEADERS.has(name))
    .map(([name, value]) => [name, String(value)]);
  return Object.fromEntries(kept.sort(([a], [b]) => a.localeCompare(b)));
};

/**
 * A GET with `Connection: close` (no agent), which the socket lane leaves to node:http: the way to
 * reach the node lane, on node:http's request objects.
 */
const getThroughNodeHttp = (url: string, headers: Record<string, string>): Promise<{ status: number; headers: IncomingHttpHeaders; body: Buffer }> =>
  new Promise((resolve, reject) => {
    httpRequest(url, { agent: false, headers }, (res) => {
      const chunks: Buffer[] = [];
      res.on('data', (c: Buffer) => chunks.push(c));
      res.on('end', () => resolve({ status: res.statusCode ?? 0, headers: res.headers, body: Buffer.concat(chunks) }));
      res.on('error', reject);
    })
      .on('error', reject)
      .end();
  });

/**
 * The socket lane (keep-alive requests, as undici sends them) and the node lane on node:http (the
 * `Connection: close` ones) answer GET /cache, /storage, /event, /vtrack and /status without
 * Fastify, which keeps serving the same paths for HEAD, trailing slashes and access logs, and
 * `inject` in tests. Each request below is sent every way and must get the same status, headers
 * and bytes.
 */
// Non-ASCII in stored values: both ways must send their UTF-8 bytes unchanged.
const XML_VALUE = '<VAST version="3.0"><AdTitle>Café 😀 — ünï</AdTitle></VAST>';

describe('the socket lane, the node lane and Fastify answer alike', () => {
  let app: TestApp;
  let base: string;
  let stored: { xml: string; json: string };

  before(async () => {
    app = await buildTestApp({
      api: { 'api-key': 'k3y' },
      storage: { memory: { optable: {} } },
      accounts: { by_id: { quiet: { events: { enabled: false } } } },
    });
    base = await app.server.listen({ host: '127.0.0.1', port: 0 });
    const put = await request(`${base}/cache`, {
      method: 'POST',
      body: JSON.stringify({ puts: [{ type: 'xml', value: XML_VALUE }, { type: 'json', value: { a: [1, 2], t: 'ü €' } }] }),
    });
    const [xml, json] = ((await put.body.json()) as { responses: { uuid: string }[] }).responses.map((r) => r.uuid);
    stored = { xml: xml ?? '', json: json ?? '' };
    const write = await request(`${base}/storage`, {
      method: 'POST',
      headers: { 'x-svc-api-key': 'k3y' },
      body: JSON.stringify({ application: 'optable', key: 'seg', type: 'json', value: '{"s":[1],"t":"é 😀"}' }),
    });
    assert.equal(write.statusCode, 204);
  });
  after(() => app.close());

  const cases = (): [string, Record<string, string>][] => [
    [`/cache?uuid=${stored.xml}`, {}],
    [`/cache?uuid=${stored.json}`, { origin: 'https://pub.example' }],
    [`/cache?uuid=${stored.xml}&uuid=other`, {}],
    ['/cache?uuid=00000000-0000-4000-8000-00000000ffff', {}],
    ['/cache', { origin: 'https://pub.example' }],
    ['/cache?uuid=', {}],
    [`/vtrack?a=acct?uuid=${stored.xml}`, {}],
    ['/vtrack?a=acct', {}],
    ['/storage?application=optable&key=seg', { 'x-svc-api-key': 'k3y' }],
    ['/storage?a=optable&k=seg', { 'x-svc-api-key': 'k3y', origin: 'https://pub.example' }],
    ['/storage?application=optable&key=none', { 'x-svc-api-key': 'k3y' }],
    ['/storage?application=other&key=seg', { 'x-svc-api-key': 'k3y' }],
    ['/storage?application=optable', { 'x-svc-api-key': 'k3y' }],
    ['/storage?application=optable&key=seg', { 'x-svc-api-key': 'K3Y' }],
    ['/storage?application=optable&key=seg', {}],
    ['/event?t=win&b=bid1&a=acct&bidder=rubicon', { 'user-agent': 'parity' }],
    ['/event?t=imp&b=bid1&a=acct&bidder=rubicon&f=i&ts=1700000000000', {}],
    ['/event?t=imp&b=bid1&a=acct&bidder=rubicon&x=0', {}],
    ['/event?t=won&a=acct&f=q&ts=soon', {}],
    ['/event?t=win&b=bid1&a=quiet&bidder=rubicon', { origin: 'https://pub.example' }],
    ['/status', {}],
    ['/status', { origin: 'https://pub.example' }],
  ];

  it('sends stored non-ASCII values as their UTF-8 bytes', async () => {
    const viaLane = await request(`${base}/cache?uuid=${stored.xml}`);
    assert.ok(Buffer.from(await viaLane.body.arrayBuffer()).equals(Buffer.from(XML_VALUE, 'utf8')));
    assert.equal(viaLane.headers['content-length'], String(Buffer.byteLength(XML_VALUE, 'utf8')));
    const entry = await request(`${base}/storage?application=optable&key=seg`, { headers: { 'x-svc-api-key': 'k3y' } });
    assert.deepEqual(await entry.body.json(), { key: 'seg', type: 'json', value: '{"s":[1],"t":"é 😀"}' });
  });

  it('for every answer of the lane routes, errors included', async () => {
    for (const [url, headers] of cases()) {
      const viaLane = await request(`${base}${url}`, { headers });
      const laneBody = Buffer.from(await viaLane.body.arrayBuffer());
      const viaFastify = await app.server.inject({ method: 'GET', url, headers });
      assert.equal(viaLane.statusCode, viaFastify.statusCode, `${url}: status`);
      assert.deepEqual(routeHeaders(viaLane.headers), routeHeaders(viaFastify.headers), `${url}: headers`);
      assert.ok(laneBody.equals(viaFastify.rawPayload), `${url}: body ${laneBody.toString()} vs ${viaFastify.body}`);
      const viaNodeHttp = await getThroughNodeHttp(`${base}${url}`, headers);
      assert.equal(viaNodeHttp.status, viaFastify.statusCode, `${url}: status on node:http`);
      assert.deepEqual(routeHeaders(viaNodeHttp.headers), routeHeaders(viaFastify.headers), `${url}: headers on node:http`);
      assert.ok(viaNodeHttp.body.equals(viaFastify.rawPayload), `${url}: body on node:http`);
    }
  });

  // Writes answer fresh uuids, which differ between the two ways; everything else must not.
  const withoutUuids = (body: string): string => body.replace(/[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}/g, '<uuid>');
  const vast = '<VAST version="3.0"><Ad><InLine><Impression><![CDATA[https://x.example/i]]></Impression></InLine></Ad></VAST>';
  const postCases: [string, string, Record<string, string>][] = [
    ['/cache', JSON.stringify({ puts: [{ type: 'xml', value: vast }] }), { 'content-type': 'application/json' }],
    ['/cache', JSON.stringify({ puts: [{ type: 'json', value: { a: 1 } }, { type: 'xml', value: 'é' }] }), { 'content-type': 'text/plain;charset=UTF-8', origin: 'https://pub.example' }],
    ['/cache', '{"puts":[]}', { 'content-type': 'application/json' }],
    ['/cache', '{"puts":[{"type":"xml"}]}', { 'content-type': 'application/json' }],
    ['/cache', '{"puts":[', { 'content-type': 'application/json' }],
    ['/cache', '', { 'content-type': 'application/json' }],
    ['/cache', '', {}],
    ['/vtrack?a=acct', JSON.stringify({ puts: [{ bidid: 'b1', bidder: 'rubicon', type: 'xml', value: vast, aid: 'a1', timestamp: 1700000000000, ttlseconds: 60 }] }), { 'content-type': 'application/json' }],
    ['/vtrack', '{"puts":[]}', { 'content-type': 'application/json' }],
    ['/vtrack?a=acct', '{"puts":[{"bidid":1}]}', { 'content-type': 'application/json', origin: 'https://pub.example' }],
  ];

  it('for writes too: POST /cache and /vtrack, errors included', async () => {
    for (const [url, body, headers] of postCases) {
      const viaLane = await request(`${base}${url}`, { method: 'POST', headers, body });
      const laneBody = await viaLane.body.text();
      const viaFastify = await app.server.inject({ method: 'POST', url, headers, body });
      const label = `POST ${url} ${body.slice(0, 40)}`;
      assert.equal(viaLane.statusCode, viaFastify.statusCode, `${label}: status`);
      assert.deepEqual(routeHeaders(viaLane.headers), routeHeaders(viaFastify.headers), `${label}: headers`);
      assert.equal(withoutUuids(laneBody), withoutUuids(viaFastify.body), `${label}: body`);
    }
  });

  it('with both feeding the same request metrics', async () => {
    const count = async (): Promise<number> => {
      const text = (await app.metrics.render()).body;
      return Number(/openbid_http_requests_total\{route="\/cache",method="GET",status="404"\} (\d+)/.exec(text)?.[1] ?? 0);
    };
    const before = await count();
    await (await request(`${base}/cache?uuid=00000000-0000-4000-8000-00000000fffe`)).body.dump();
    await app.server.inject({ method: 'GET', url: '/cache?uuid=00000000-0000-4000-8000-00000000fffe' });
    assert.equal(await count(), before + 2);
  });
});
