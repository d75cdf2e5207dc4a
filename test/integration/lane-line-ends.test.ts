import assert from 'node:assert/strict';
import { connect } from 'node:net';
import type { AddressInfo } from 'node:net';
import { performance } from 'node:perf_hooks';
import { after, before, describe, it } from 'node:test';
import type { LanesSetting } from '../../src/http/server.js';
import { buildTestApp } from '../support/app.js';
import type { TestApp } from '../support/app.js';
import { ALL_LANES } from '../support/fixtures.js';

/**
 * A head that llhttp refuses as soon as it reads it (bare LF or bare CR line ends, a control
 * character, a request line it cannot read) gets node:http's 400 at once on every path. Before,
 * on `server.lanes: all` the socket lane waited for a CRLF CRLF that such a client never sends:
 * the answer was a 408 after `server.headers_timeout_ms` (60 s by default, kept here).
 */

/** Well under a second: node:http answers these in a few milliseconds. */
const PROMPT_MS = 1000;

const HEADS: readonly string[] = [
  // The head of issue 24, byte for byte.
  'GET /status HTTP/1.1\nHost: x\n\n',
  'GET /cache?uuid=abc HTTP/1.1\nHost: x\n',
  'GET /status HTTP/1.1\r\nHost: x\n\n',
  'GET /status HTTP/1.1\nHost: x\r\n',
  'GET /status HTTP/1.1\rHost: x\r\r',
  'GET /status HTTP/1.1\r\nHost: x\r\rUser-Agent: y\r\n',
  'POST /cache HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\nContent-Length: 2\n\n{}',
  'GET /status HTTP/1.1\r\nHost: x\x00',
  'GET /status HTTP/1.2\r\nHo',
  'GET /status HTTP/1.1\r\nHo st: x\r\n',
];

interface Ending {
  readonly received: string;
  readonly afterMs: number;
}

/** Sends `bytes` on a fresh connection; resolves when the server closes it, or after PROMPT_MS with what came. */
const sendAndAwaitClose = (port: number, bytes: string): Promise<Ending> =>
  new Promise((resolve) => {
    const socket = connect(port, '127.0.0.1');
    let received = '';
    let sentAt = 0;
    const timer = setTimeout(() => socket.destroy(), PROMPT_MS + 200);
    socket.on('connect', () => {
      sentAt = performance.now();
      socket.write(bytes, 'latin1');
    });
    socket.on('data', (d: Buffer) => (received += d.toString('latin1')));
    socket.on('error', () => undefined);
    socket.on('close', () => {
      clearTimeout(timer);
      resolve({ received, afterMs: performance.now() - sentAt });
    });
  });

describe('a head with bare LF or CR line ends is answered at once on every path', () => {
  const apps = new Map<LanesSetting, TestApp>();
  const ports = new Map<LanesSetting, number>();
  before(async () => {
    for (const lanes of ALL_LANES) {
      const app = await buildTestApp({ server: { lanes } });
      await app.server.listen({ host: '127.0.0.1', port: 0 });
      apps.set(lanes, app);
      ports.set(lanes, (app.server.server.address() as AddressInfo).port);
    }
  });
  after(async () => {
    for (const app of apps.values()) await app.close();
  });

  for (const head of HEADS) {
    it(`${JSON.stringify(head)}: node:http's 400, closed well under a second, the same bytes with lanes all, node and off`, async () => {
      const endings = await Promise.all(ALL_LANES.map((lanes) => sendAndAwaitClose(ports.get(lanes) ?? 0, head)));
      const [all] = endings;
      endings.forEach((ending, i) => {
        const lanes = ALL_LANES[i] ?? '';
        assert.ok(ending.received.startsWith('HTTP/1.1 400 '), `lanes ${lanes}: answered ${JSON.stringify(ending.received)} after ${ending.afterMs.toFixed(0)} ms`);
        assert.ok(ending.afterMs < PROMPT_MS, `lanes ${lanes}: closed ${ending.afterMs.toFixed(0)} ms after the head`);
        assert.equal(ending.received, all?.received, `lanes ${lanes} answered otherwise than lanes all`);
      });
    });
  }

  it('the default head deadline is still 60 s (so the answers above are not a timeout)', () => {
    assert.equal(apps.get('all')?.server.server.headersTimeout, 60_000);
  });
});
