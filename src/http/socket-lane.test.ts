import assert from 'node:assert/strict';
import { once } from 'node:events';
import { createServer } from 'node:http';
import type { Server } from 'node:http';
import type { AddressInfo, Socket } from 'node:net';
import { performance } from 'node:perf_hooks';
import { afterEach, beforeEach, describe, it } from 'node:test';
import { setTimeout as sleep } from 'node:timers/promises';
import { field, openRaw } from '../../test/support/raw-http.js';
import type { RawAnswer, RawConnection } from '../../test/support/raw-http.js';
import { AppError, ErrorCode } from '../core/app-error.js';
import { byteStringOf } from '../core/bytes.js';
import type { Logger } from '../core/logger.js';
import { createPrometheusMetrics } from '../metrics/prometheus.js';
import { bytesAnswer } from './answer.js';
import type { Answer, AnswerRequest, BodyAnswerRequest } from './answer.js';
import { createClientAddress, trustedProxyCheck } from './client-address.js';
import { createNodeLane } from './node-lane.js';
import { createLaneRoutes, DEADLINE_CHECK_INTERVAL_MS } from './lane-core.js';
import { createRequestMetrics } from './request-metrics.js';
import { putSocketLaneInFront } from './socket-lane.js';
import type { SocketLane } from './socket-lane.js';

/** A logger that keeps what it is given. */
const recordingLogger = (): Logger & { messages: (string | undefined)[] } => {
  const messages: (string | undefined)[] = [];
  const at = () => (_obj: unknown, msg?: string) => {
    messages.push(msg);
  };
  const logger = { messages, fatal: at(), error: at(), warn: at(), info: at(), debug: at(), trace: at(), child: () => logger };
  return logger;
};

const FALLBACK_STATUS = 299;
const POST_LIMIT = 64;
const BIG = Buffer.alloc(256 * 1024, 'b');
const get = (path: string, extra = ''): string => `GET ${path} HTTP/1.1\r\nHost: t\r\n${extra}\r\n`;
const post = (path: string, body: string, extra = ''): string =>
  `POST ${path} HTTP/1.1\r\nHost: t\r\nContent-Type: application/json\r\nContent-Length: ${String(Buffer.byteLength(body))}\r\n${extra}\r\n${body}`;
const text = (a: RawAnswer): string => a.body.toString('utf8');

describe('socket lane', () => {
  let server: Server;
  let port: number;
  let wire: SocketLane;
  /** Resolves the next time the `/slow` handler is called. */
  let slowCalled: () => void = () => undefined;
  /** When `/slow` answers: 40 ms after it is called, unless a test holds it (`holdSlow`). */
  let slowAnswered: () => Promise<unknown> = () => sleep(40);
  let logger: ReturnType<typeof recordingLogger>;
  let metrics: ReturnType<typeof createPrometheusMetrics>;
  let seen: AnswerRequest[];
  let posted: BodyAnswerRequest[];
  let bigServed: number;
  let fallbackServed: number;
  /** Requests node:http parsed: those of connections the socket lane handed over. */
  let nodeRequests: number;
  const connections: RawConnection[] = [];

  const start = async ({ keepAliveTimeoutMs = 5000, headersTimeoutMs = 60_000, requestTimeoutMs = 300_000 } = {}): Promise<void> => {
    logger = recordingLogger();
    metrics = createPrometheusMetrics({ processMetrics: false });
    seen = [];
    posted = [];
    bigServed = 0;
    fallbackServed = 0;
    nodeRequests = 0;
    slowAnswered = () => sleep(40);
    const routes = createLaneRoutes({ logger, metrics: createRequestMetrics({ metrics, logger, slowRequestMs: 0 }) });
    routes.get('/value', (req) => {
      seen.push(req);
      return { status: 200, contentType: 'application/xml', body: Buffer.from('<VAST/>') };
    });
    routes.get('/latin', () => {
      const bytes = Buffer.from('<a>é</a>');
      return bytesAnswer(200, 'application/xml', byteStringOf(bytes, 0, bytes.length));
    });
    routes.get('/text', async () => ({ status: 200, contentType: 'text/plain; charset=utf-8', body: 'héllo' }));
    routes.get('/slow', async (): Promise<Answer> => {
      slowCalled();
      await slowAnswered();
      return { status: 200, contentType: 'text/plain', body: 'slow' };
    });
    routes.get('/big', () => {
      bigServed++;
      return { status: 200, contentType: 'application/octet-stream', body: BIG };
    });
    routes.get('/missing', () => {
      throw new AppError(ErrorCode.NOT_FOUND, 'GET /missing: Key not found');
    });
    // A number is no body a socket can write: stands for a bug in writing.
    routes.get('/broken', () => ({ status: 200, body: 42 as unknown as string }));
    routes.post('/write', POST_LIMIT, (req) => {
      posted.push(req);
      return { status: 200, contentType: 'application/json; charset=utf-8', body: JSON.stringify({ got: req.body }) };
    });
    // Loopback is a trusted proxy here, so X-Forwarded-For names the client.
    const clientAddress = createClientAddress(trustedProxyCheck(['loopback']));
    const lane = createNodeLane({ logger, routes, enabled: true, clientAddress });
    server = createServer((req, res) => {
      nodeRequests++;
      if (lane.serve(req, res)) return;
      fallbackServed++;
      req.resume();
      res.writeHead(FALLBACK_STATUS, { 'content-type': 'text/plain', 'content-length': 8 }).end('fallback');
    });
    server.keepAliveTimeout = keepAliveTimeoutMs;
    server.headersTimeout = headersTimeoutMs;
    server.requestTimeout = requestTimeoutMs;
    const installed = putSocketLaneInFront(server, { logger, routes, keepAliveTimeoutMs, clientAddress });
    assert.ok(installed, 'node:http has the one connection listener the lane takes over');
    wire = installed;
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    port = (server.address() as AddressInfo).port;
  };
  const connection = async (): Promise<RawConnection> => {
    const c = await openRaw(port);
    connections.push(c);
    return c;
  };
  /** A connection and the server's side of it, to wait for what the server has read. */
  const connectionWithPeer = async (): Promise<{ c: RawConnection; peer: Socket }> => {
    const accepted = once(server, 'connection') as Promise<[Socket]>;
    const c = await connection();
    const [peer] = await accepted;
    return { c, peer };
  };
  /** Writes bytes and resolves once the server has read them (the lane's listener runs first). */
  const writeAndRead = async (c: RawConnection, peer: Socket, bytes: string | Buffer): Promise<void> => {
    const read = once(peer, 'data');
    c.write(bytes);
    await read;
  };
  /**
   * Keeps `/slow` requests from now on unanswered until the returned function is called, and
   * resolves once the first of them has reached its handler: a request in flight for exactly as
   * long as the test needs, however slowly a loaded machine gets through the rest.
   */
  const holdSlow = (): { started: Promise<void>; release: () => void } => {
    let release: () => void = () => undefined;
    const released = new Promise<void>((resolve) => (release = resolve));
    slowAnswered = () => released;
    const started = new Promise<void>((resolve) => (slowCalled = resolve));
    return { started, release };
  };
  const stop = async (): Promise<void> => {
    for (const c of connections.splice(0)) c.socket.destroy();
    server.closeAllConnections();
    await new Promise((resolve) => server.close(resolve));
  };

  beforeEach(() => start());
  afterEach(() => stop());

  it('answers a lane GET from the bytes, with the query and headers as node:http would give them', async () => {
    const c = await connection();
    c.write(get('/value?uuid=a&uuid=b&x=%20y+z', 'User-Agent: raw\r\nOrigin: https://pub.example\r\n'));
    const [answer] = await c.answers(1);
    assert.equal(answer?.status, 200);
    assert.equal(answer && text(answer), '<VAST/>');
    assert.equal(answer && field(answer, 'access-control-allow-origin'), 'https://pub.example');
    assert.deepEqual({ ...seen[0]?.query }, { uuid: ['a', 'b'], x: ' y z' });
    assert.equal(seen[0]?.headers['user-agent'], 'raw');
    assert.equal(nodeRequests, 0);
  });

  it('writes the same bytes as node:http with the node lane, Date aside', async () => {
    // `Trailer` is a field the socket lane leaves to node:http, and that changes nothing else.
    const viaNode = 'Trailer: x\r\n';
    const cases: [string, string][] = [
      [get('/value'), get('/value', viaNode)],
      [get('/value', 'Origin: https://pub.example\r\n'), get('/value', `Origin: https://pub.example\r\n${viaNode}`)],
      [get('/text', 'Origin: https://pub.example\r\n'), get('/text', `Origin: https://pub.example\r\n${viaNode}`)],
      [get('/latin'), get('/latin', viaNode)],
      [get('/missing'), get('/missing', viaNode)],
      [post('/write', '{"a":"ü"}'), post('/write', '{"a":"ü"}', viaNode)],
      [post('/write', '{"a":"ü"}', 'Origin: https://pub.example\r\n'), post('/write', '{"a":"ü"}', `Origin: https://pub.example\r\n${viaNode}`)],
    ];
    const withoutDate = (a: RawAnswer): string => a.bytes.toString('latin1').replace(/\r\nDate: [^\r]*/, '');
    for (const [wireRequest, nodeRequest] of cases) {
      const viaWire = await connection();
      viaWire.write(wireRequest);
      const [w] = await viaWire.answers(1);
      const viaHttp = await connection();
      viaHttp.write(nodeRequest);
      const [n] = await viaHttp.answers(1);
      assert.ok(w && n);
      assert.equal(withoutDate(w), withoutDate(n), wireRequest);
      assert.match(field(w, 'date') ?? '', /^\w{3}, \d{2} \w{3} \d{4} \d{2}:\d{2}:\d{2} GMT$/);
    }
    assert.equal(fallbackServed, 0);
  });

  it('echoes an Origin with bytes beyond ASCII as they came, whatever the body (node:http would send them as UTF-8 with a text body)', async () => {
    const origin = 'Origin: https://caf\xe9.example\r\n';
    for (const request of [get('/text', origin), get('/value', origin), post('/write', '{"a":1}', origin)]) {
      const c = await connection();
      c.write(Buffer.from(request, 'latin1'));
      const [answer] = await c.answers(1);
      assert.ok(answer?.bytes.includes(Buffer.from('access-control-allow-origin: https://caf\xe9.example\r\n', 'latin1')), request);
    }
  });

  it('answers pipelined requests in order, a slow answer holding back the ones after it', async () => {
    const c = await connection();
    c.write(get('/slow') + get('/value') + post('/write', '{"n":1}') + get('/text'));
    const answers = await c.answers(4);
    assert.deepEqual(answers.map(text), ['slow', '<VAST/>', '{"got":"{\\"n\\":1}"}', 'héllo']);
  });

  it('serves a request whose head and body arrive in pieces', async () => {
    const { c, peer } = await connectionWithPeer();
    const whole = post('/write', '{"split":"é"}');
    const bytes = Buffer.from(whole);
    // Pieces cut inside the head's end and inside the two bytes of é, each sent once the last is read.
    const cuts = [5, whole.indexOf('\r\n\r\n') + 2, bytes.length - 4];
    let from = 0;
    for (const cut of cuts) {
      await writeAndRead(c, peer, bytes.subarray(from, cut));
      from = cut;
    }
    c.write(bytes.subarray(from));
    const [answer] = await c.answers(1);
    assert.equal(answer && text(answer), '{"got":"{\\"split\\":\\"é\\"}"}');
    assert.equal(posted.length, 1);
    assert.equal(nodeRequests, 0);
  });

  describe('deadlines, as node:http keeps them', () => {
    const DEADLINE_MS = 300;
    /** Waits for a 408 and the end of the connection: how long after `since` the end came. */
    const timedOut = async (c: RawConnection, since: number): Promise<number> => {
      const [answer] = await c.answers(1, 5000);
      assert.equal(answer?.status, 408);
      assert.equal(answer && field(answer, 'connection'), 'close');
      await c.closed();
      return performance.now() - since;
    };
    /** Not before the deadline (it runs from the first byte the server read, after `since`), and within a check interval of it plus slack for a loaded machine. */
    const onTime = (elapsed: number): void => {
      assert.ok(elapsed >= DEADLINE_MS, `timed out after ${elapsed.toFixed(0)} ms, before the ${String(DEADLINE_MS)} ms deadline`);
      assert.ok(elapsed < DEADLINE_MS + DEADLINE_CHECK_INTERVAL_MS + 1000, `timed out after ${elapsed.toFixed(0)} ms`);
    };

    it('answers 408 and closes a connection whose head stalls part-way (headersTimeout)', async () => {
      await stop();
      await start({ headersTimeoutMs: DEADLINE_MS });
      const c = await connection();
      const since = performance.now();
      c.write('GET /value HTTP/1.1\r\nHo');
      onTime(await timedOut(c, since));
      assert.equal(nodeRequests, 0);
      assert.equal(seen.length, 0);
    });

    it('the same for a head that trickles in a byte at a time', async () => {
      await stop();
      await start({ headersTimeoutMs: DEADLINE_MS });
      const c = await connection();
      const since = performance.now();
      const head = get('/value');
      let closed = false;
      const ended = timedOut(c, since).finally(() => (closed = true));
      // The client keeps sending (a byte every 20 ms, never the whole head) until it is cut off.
      for (let i = 0; i < head.length - 2 && !closed; i++) {
        c.write(head[i] ?? '');
        await sleep(20);
      }
      onTime(await ended);
      assert.equal(seen.length, 0);
    });

    it('answers 408 and closes a connection whose body stalls part-way (requestTimeout)', async () => {
      await stop();
      await start({ requestTimeoutMs: DEADLINE_MS });
      const c = await connection();
      const since = performance.now();
      c.write(post('/write', '{"a":"long enough"}').slice(0, -5));
      onTime(await timedOut(c, since));
      assert.equal(posted.length, 0);
      assert.equal(nodeRequests, 0);
    });

    it('times out a stalled request after others were served on the connection', async () => {
      await stop();
      await start({ headersTimeoutMs: DEADLINE_MS });
      const c = await connection();
      c.write(get('/value'));
      await c.answers(1);
      const since = performance.now();
      c.write('GET /value HTTP/1.1\r\n');
      onTime(await timedOut(c, since));
    });

    it('lets the server\'s clientError listener answer, as node:http does (Fastify answers its own 408)', async () => {
      await stop();
      await start({ headersTimeoutMs: DEADLINE_MS });
      const errors: string[] = [];
      server.on('clientError', (err: NodeJS.ErrnoException, socket: Socket) => {
        errors.push(err.code ?? '');
        socket.end('HTTP/1.1 408 Request Timeout\r\nContent-Length: 0\r\nConnection: close\r\n\r\n');
      });
      const c = await connection();
      c.write('GET /value HTTP/1.1\r\n');
      await timedOut(c, performance.now());
      assert.deepEqual(errors, ['ERR_HTTP_REQUEST_TIMEOUT']);
    });

    it('does not time out a request that arrives whole in pieces, nor an idle connection', async () => {
      await stop();
      await start({ headersTimeoutMs: DEADLINE_MS, requestTimeoutMs: DEADLINE_MS });
      const { c, peer } = await connectionWithPeer();
      const whole = post('/write', '{"n":1}');
      await writeAndRead(c, peer, whole.slice(0, 10));
      await writeAndRead(c, peer, whole.slice(10, -2));
      c.write(whole.slice(-2));
      const [answer] = await c.answers(1);
      assert.equal(answer?.status, 200);
      // Idle past both deadlines: only the keep-alive timeout ends an idle connection.
      await sleep(DEADLINE_MS + DEADLINE_CHECK_INTERVAL_MS * 2);
      c.write(get('/value'));
      const [later] = await c.answers(1);
      assert.equal(later?.status, 200);
    });
  });

  it('hands the connection to node:http at the first request not its own, after its own answers', async () => {
    const c = await connection();
    c.write(get('/slow') + get('/elsewhere') + get('/value'));
    const answers = await c.answers(3);
    assert.deepEqual(
      answers.map((a) => a.status),
      [200, FALLBACK_STATUS, 200],
    );
    assert.equal(answers[0] && text(answers[0]), 'slow');
    // node:http keeps the connection, and its node lane serves the lane routes on it.
    c.write(post('/write', '{}'));
    const [later] = await c.answers(1);
    assert.equal(later?.status, 200);
    assert.equal(fallbackServed, 1);
    assert.equal(nodeRequests, 3);
  });

  it('leaves every unusual request to node:http: other methods and paths, Connection: close, HTTP/1.0, oversized or chunked bodies', async () => {
    const requests = [
      get('/value/'),
      get('/%76alue'),
      'GET /value HTTP/1.0\r\n\r\n',
      post('/value', '{}'),
      post('/write', 'x'.repeat(POST_LIMIT + 1)),
      'POST /write HTTP/1.1\r\nHost: t\r\nContent-Type: application/xml\r\nContent-Length: 2\r\n\r\n{}',
      'POST /write HTTP/1.1\r\nHost: t\r\nContent-Type: application/json\r\nTransfer-Encoding: chunked\r\n\r\n2\r\n{}\r\n0\r\n\r\n',
    ];
    for (const request of requests) {
      const c = await connection();
      c.write(request);
      await c.answers(1);
    }
    // The HTTP/1.0 GET is the node lane's on node:http; it leaves the rest (chunked included) to Fastify.
    assert.equal(fallbackServed, requests.length - 1);
    assert.equal(seen.length, 1);
    assert.equal(posted.length, 0);
  });

  it('lets node:http refuse a request smuggling a second one in its body: neither is served', async () => {
    const c = await connection();
    const smuggled = get('/value');
    c.write(`POST /write HTTP/1.1\r\nHost: t\r\nContent-Type: application/json\r\nContent-Length: ${String(smuggled.length + 5)}\r\nTransfer-Encoding: chunked\r\n\r\n0\r\n\r\n${smuggled}`);
    const [answer] = await c.answers(1);
    assert.equal(answer?.status, 400);
    await c.closed();
    assert.equal(posted.length, 0);
    assert.equal(seen.length, 0);
  });

  it('closes the connection once its answers are out when the client has sent its FIN', async () => {
    const c = await connection();
    c.write(get('/slow'));
    c.end();
    const [answer] = await c.answers(1);
    assert.equal(answer && text(answer), 'slow');
    await c.closed();
  });

  it('hands node:http a FIN that came while the lane still held the connection', async () => {
    const slow = holdSlow();
    const { c, peer } = await connectionWithPeer();
    const finRead = once(peer, 'end');
    c.write(get('/slow') + get('/elsewhere'));
    c.end();
    await slow.started;
    await finRead;
    slow.release();
    const answers = await c.answers(2);
    assert.deepEqual(
      answers.map((a) => a.status),
      [200, FALLBACK_STATUS],
    );
    await c.closed();
  });

  it('closes a connection idle for the keep-alive timeout', async () => {
    await stop();
    await start({ keepAliveTimeoutMs: 100 });
    const c = await connection();
    c.write(get('/value'));
    await c.answers(1);
    const idleSince = Date.now();
    await c.closed();
    assert.ok(Date.now() - idleSince >= 90, 'not before the timeout');
  });

  it('on close: ends idle connections and part-heads now, busy ones after their answer, lets a body finish, and hands every later request to node:http', async () => {
    const idle = await connection();
    idle.write(get('/value'));
    await idle.answers(1);
    const busy = await connection();
    const held = holdSlow();
    busy.write(get('/slow'));
    await held.started;
    const halfHead = await connectionWithPeer();
    await writeAndRead(halfHead.c, halfHead.peer, 'GET /value HTTP/1.1\r\n');
    const halfBody = await connectionWithPeer();
    const upload = post('/write', '{"in":"flight"}');
    await writeAndRead(halfBody.c, halfBody.peer, upload.slice(0, -4));
    wire.close();
    await idle.closed();
    // Part of a head is no request yet: nothing is owed, and it must not hold shutdown up.
    await halfHead.c.closed();
    assert.equal(busy.socket.closed, false, 'the busy connection is kept until its answer is out');
    held.release();
    const [slow] = await busy.answers(1);
    assert.equal(slow && text(slow), 'slow');
    await busy.closed();
    // A body under way is a request in flight: it is served, then the connection ends.
    halfBody.c.write(upload.slice(-4));
    const [uploaded] = await halfBody.c.answers(1);
    assert.equal(uploaded && text(uploaded), '{"got":"{\\"in\\":\\"flight\\"}"}');
    await halfBody.c.closed();
    const fresh = await connection();
    fresh.write(get('/elsewhere'));
    const [handed] = await fresh.answers(1);
    assert.equal(handed?.status, FALLBACK_STATUS);
  });

  it('ends its connections on node:http\'s closeIdleConnections() (idle ones) and closeAllConnections() (all)', async () => {
    const idle = await connection();
    idle.write(get('/value'));
    await idle.answers(1);
    const halfHead = await connectionWithPeer();
    await writeAndRead(halfHead.c, halfHead.peer, 'GET /value HTTP/1.1\r\n');
    server.closeIdleConnections();
    await idle.closed();
    // A request under way is not idle: it is still served.
    halfHead.c.write('Host: t\r\n\r\n');
    const [answer] = await halfHead.c.answers(1);
    assert.equal(answer?.status, 200);
    const busy = await connection();
    const held = holdSlow();
    busy.write(get('/slow'));
    await held.started;
    server.closeAllConnections();
    // Closed with its request still unanswered.
    await Promise.all([halfHead.c.closed(), busy.closed()]);
    held.release();
  });

  it('stands aside when node:http counts requests per connection (maxRequestsPerSocket)', async () => {
    server.maxRequestsPerSocket = 2;
    const c = await connection();
    c.write(get('/value') + get('/value'));
    const answers = await c.answers(2);
    assert.deepEqual(
      answers.map((a) => a.status),
      [200, 200],
    );
    assert.equal(nodeRequests, 2, 'node:http parsed both');
    assert.equal(answers[1] && field(answers[1], 'connection'), 'close');
  });

  it('gives handlers the client\'s address: the peer, or behind a trusted proxy the one X-Forwarded-For names', async () => {
    const c = await connection();
    c.write(get('/value') + get('/value', 'X-Forwarded-For: 198.51.100.7, 203.0.113.9\r\n') + post('/write', '{}', 'X-Forwarded-For: 2001:db8::1\r\n'));
    await c.answers(3);
    assert.deepEqual(
      seen.map((r) => r.ip),
      ['127.0.0.1', '203.0.113.9'],
    );
    assert.equal(posted[0]?.ip, '2001:db8::1');
  });

  it('stops reading a client that does not read its answers, until it does', async () => {
    const { c, peer } = await connectionWithPeer();
    const count = 100;
    c.socket.pause();
    c.write(get('/big').repeat(count));
    // The lane pauses the server's socket once its unsent answers pass the high-water mark.
    const deadline = Date.now() + 5000;
    while (!peer.isPaused() && Date.now() < deadline) await sleep(5);
    assert.ok(peer.isPaused(), 'the lane stopped reading');
    assert.ok(bigServed < count, `stopped after ${String(bigServed)} of ${String(count)} answers of 256 KiB`);
    c.socket.resume();
    const answers = await c.answers(count, 10_000);
    assert.equal(answers.length, count);
    assert.ok(answers.every((a) => a.body.equals(BIG)));
    assert.equal(bigServed, count);
  });

  it('answers every request of a pipelined flood in order, reading on after a slow one is answered', async () => {
    const c = await connection();
    const count = 3000;
    // Over 100 KiB sent ahead of the slow answer: more than the lane reads ahead of a busy handler.
    c.write(get('/slow') + get('/value?n=1').repeat(count));
    const answers = await c.answers(count + 1, 10_000);
    assert.equal(answers[0] && text(answers[0]), 'slow');
    assert.ok(answers.slice(1).every((a) => text(a) === '<VAST/>'));
    assert.equal(seen.length, count);
  });

  it('drops the connection of an answer it cannot write, logs it, and serves the others', async () => {
    const broken = await connection();
    broken.write(get('/broken'));
    await broken.closed();
    assert.ok(logger.messages.includes('socket lane could not write an answer'));
    const fine = await connection();
    fine.write(get('/value'));
    const [answer] = await fine.answers(1);
    assert.equal(answer?.status, 200);
  });

  it('feeds the request metrics by route, method and status', async () => {
    const c = await connection();
    c.write(get('/value') + get('/missing') + post('/write', '{}'));
    await c.answers(3);
    const exposition = (await metrics.render()).body;
    assert.match(exposition, /openbid_http_requests_total\{route="\/value",method="GET",status="200"\} 1/);
    assert.match(exposition, /openbid_http_requests_total\{route="\/missing",method="GET",status="404"\} 1/);
    assert.match(exposition, /openbid_http_requests_total\{route="\/write",method="POST",status="200"\} 1/);
  });
});
