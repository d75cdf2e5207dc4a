import assert from 'node:assert/strict';
import { once } from 'node:events';
import { connect } from 'node:net';
import type { AddressInfo, Socket } from 'node:net';
import { performance } from 'node:perf_hooks';
import { after, before, describe, it } from 'node:test';
import type { LanesSetting } from '../../src/http/server.js';
import { buildTestApp } from '../support/app.js';
import type { TestApp } from '../support/app.js';
import { ALL_LANES } from '../support/fixtures.js';

/**
 * node:http's deadlines hold on every path a request can take: with `server.headers_timeout_ms`
 * and `server.request_timeout_ms` at 1000, a connection holding half a request head, or a whole
 * head and half its body, gets a 408 or is closed within 2 s of its first byte, whichever path
 * holds it: the socket lane (a lane route on a fresh connection), node:http with the node lane,
 * or node:http with Fastify (another route, HEAD, or `server.lanes` off). Each case waits for the
 * connection's end itself, up to the 2 s the acceptance allows.
 */

const DEADLINE_MS = 1000;
const WITHIN_MS = 2000;

interface Ending {
  /** What the server sent before closing. */
  readonly received: string;
  /** Milliseconds from the first byte sent to the close. */
  readonly afterMs: number;
}

/** Sends `bytes` on a fresh connection and resolves when the server closes it, or rejects after WITHIN_MS. */
const sendAndAwaitClose = (port: number, bytes: string): Promise<Ending> =>
  new Promise((resolve, reject) => {
    const socket = connect(port, '127.0.0.1');
    let received = '';
    let sentAt = 0;
    const timer = setTimeout(() => {
      socket.destroy();
      reject(new Error(`still open ${String(WITHIN_MS)} ms after ${JSON.stringify(bytes)}; received ${JSON.stringify(received)}`));
    }, WITHIN_MS + 200);
    socket.on('connect', () => {
      sentAt = performance.now();
      socket.write(bytes);
    });
    socket.on('data', (d: Buffer) => (received += d.toString('latin1')));
    socket.on('error', () => undefined);
    socket.on('close', () => {
      clearTimeout(timer);
      resolve({ received, afterMs: performance.now() - sentAt });
    });
  });

const BODY = JSON.stringify({ puts: [{ type: 'xml', value: '<VAST version="3.0"></VAST>' }] });
const halfBody = (path: string, extra = ''): string =>
  `POST ${path} HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\nContent-Length: ${String(BODY.length)}\r\n${extra}\r\n${BODY.slice(0, 20)}`;

/**
 * What stalls. Under `server.lanes: all` the socket lane holds the first and third; node:http the
 * others (HEAD and `Connection: close` are handed to it at once, `/storage` is Fastify's), the
 * last with the node lane reading the body. Under `node` and `off` node:http holds them all.
 */
const CASES: readonly (readonly [string, string])[] = [
  ['half a head of a lane route', 'GET /cache?uuid=abc HTTP/1.1\r\nHost: x\r\nUser-Ag'],
  ['half a HEAD head', 'HEAD /cache?uuid=abc HTTP/1.1\r\nHo'],
  ['half the body of a lane route', halfBody('/cache')],
  ['half the body of a Fastify route', halfBody('/storage', 'x-svc-api-key: k3y\r\n')],
  ['half the body of a lane route sent with Connection: close', halfBody('/cache', 'Connection: close\r\n')],
];

for (const lanes of ALL_LANES) {
  describe(`deadlines with server.lanes: ${lanes}`, () => {
    let app: TestApp;
    let port: number;
    before(async () => {
      app = await buildTestApp({
        server: { lanes: lanes satisfies LanesSetting, headers_timeout_ms: DEADLINE_MS, request_timeout_ms: DEADLINE_MS },
        api: { 'api-key': 'k3y' },
        storage: { memory: { optable: {} } },
      });
      await app.server.listen({ host: '127.0.0.1', port: 0 });
      port = (app.server.server.address() as AddressInfo).port;
    });
    after(() => app.close());

    it('408 or closed within 2 s of the first byte, never before the deadline, whichever path holds the connection', async () => {
      // All at once: each waits for its own connection's end.
      const endings = await Promise.all(CASES.map(([, bytes]) => sendAndAwaitClose(port, bytes)));
      endings.forEach((ending, i) => {
        const label = CASES[i]?.[0] ?? '';
        assert.ok(ending.received === '' || ending.received.startsWith('HTTP/1.1 408 '), `${label}: answered ${JSON.stringify(ending.received)}`);
        assert.ok(ending.afterMs >= DEADLINE_MS - 5, `${label}: closed ${ending.afterMs.toFixed(0)} ms after the first byte, before the deadline`);
        assert.ok(ending.afterMs <= WITHIN_MS, `${label}: closed ${ending.afterMs.toFixed(0)} ms after the first byte`);
      });
    });

    it('the same for a head that trickles in, a byte every 50 ms', async () => {
      const head = 'GET /cache?uuid=abc HTTP/1.1\r\nHost: x\r\nUser-Agent: a-slow-client-that-never-ends-its-head\r\n';
      const socket = connect(port, '127.0.0.1');
      let received = '';
      let closed = false;
      socket.on('data', (d: Buffer) => (received += d.toString('latin1')));
      socket.on('error', () => undefined);
      const ended = new Promise<number>((resolve) => socket.on('close', () => resolve(performance.now())));
      void ended.then(() => (closed = true));
      await new Promise<void>((resolve) => socket.once('connect', () => resolve()));
      const sentAt = performance.now();
      // Bounded: the head's length in bytes, and the 2 s allowed.
      for (let i = 0; i < head.length && !closed && performance.now() - sentAt < WITHIN_MS + 200; i++) {
        socket.write(head[i] ?? '');
        await new Promise((resolve) => setTimeout(resolve, 50));
      }
      assert.ok(closed, `still open after ${(performance.now() - sentAt).toFixed(0)} ms of trickling`);
      const afterMs = (await ended) - sentAt;
      assert.ok(received === '' || received.startsWith('HTTP/1.1 408 '), `answered ${JSON.stringify(received)}`);
      assert.ok(afterMs >= DEADLINE_MS - 5 && afterMs <= WITHIN_MS, `closed after ${afterMs.toFixed(0)} ms`);
    });
  });
}

describe('shutdown', () => {
  it('is not held up by a connection holding half a head on the socket lane (SIGINT and SIGTERM call close)', async () => {
    const app = await buildTestApp();
    await app.server.listen({ host: '127.0.0.1', port: 0 });
    const server = app.server.server;
    const accepted = once(server, 'connection') as Promise<[Socket]>;
    const client = connect((server.address() as AddressInfo).port, '127.0.0.1');
    client.on('error', () => undefined);
    const clientClosed = once(client, 'close');
    const [peer] = await accepted;
    // Waits until the server has read the half head (the lane's listener runs first).
    const read = once(peer, 'data');
    client.write('GET /cache?uuid=abc HTTP/1.1\r\nHo');
    await read;
    const startedAt = performance.now();
    await app.close();
    await clientClosed;
    // Before, the lane kept it until the keep-alive timeout: shutdown ran into shutdown_timeout_ms.
    assert.ok(performance.now() - startedAt < 1000, `closed after ${(performance.now() - startedAt).toFixed(0)} ms`);
  });
});

describe('deadline settings', () => {
  it('default to node:http\'s own (60 s for a head, 300 s for a request), checked every 250 ms', async () => {
    const app = await buildTestApp();
    try {
      const server = app.server.server;
      assert.equal(server.headersTimeout, 60_000);
      assert.equal(server.requestTimeout, 300_000);
      assert.equal(app.config.server.headers_timeout_ms, 60_000);
      assert.equal(app.config.server.request_timeout_ms, 300_000);
    } finally {
      await app.close();
    }
  });
});
