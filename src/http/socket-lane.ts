import type { Server } from 'node:http';
import type { Socket } from 'node:net';
import type { Logger } from '../core/logger.js';
import type { MaybePromise } from '../core/maybe-promise.js';
import { answerBodyBytes } from './answer.js';
import type { Answer } from './answer.js';
import { createAnswerHeadWriter } from './answer-headers.js';
import type { ClientAddress } from './client-address.js';
import { DEADLINE_CHECK_INTERVAL_MS, laneClock, laneQuery } from './lane-core.js';
import type { GetRoute, LaneRoute, LaneRoutes, PostRoute } from './lane-core.js';
import { INCOMPLETE, UNSUPPORTED, readRequestHead } from './request-head.js';
import type { RequestHead } from './request-head.js';
import { createTurnBatch } from './turn-batch.js';

/**
 * The socket lane: the hottest routes served straight from the connection's bytes, before
 * node:http builds its request and response objects. Each connection starts here, and its
 * requests are read (`request-head.ts`) and answered here for as long as they are the lane's.
 * The first request that is not (another path or method, HEAD, a chunked or oversized body,
 * another content type, `Connection: close`, HTTP/1.0, anything `request-head.ts` does not read,
 * or any request once shutdown has begun) hands the whole connection to node:http, with the
 * bytes not yet served, as if node:http had accepted it: from then on node:http, the node lane
 * (`node-lane.ts`) and Fastify serve it.
 *
 * Why: node:http's per-request objects, events and header handling cost about a third of a bare
 * node:http server's CPU on a small request; reading a plain head and writing the answer's bytes
 * costs a fraction of that (docs/performance.md). Everything unusual stays node:http's, so its
 * parser's checks and statuses stay the only ones.
 *
 * Contract (docs/http-lanes.md):
 * - answers go out in request order (a pipelined request waits for the answer before it);
 * - handing off happens only between requests, after this connection's answers are written;
 * - node:http's deadlines hold: a request whose head is not whole `headersTimeoutMs` after its
 *   first byte, or not whole with its body `requestTimeoutMs` after it, stalled or trickling,
 *   is timed out as node:http times it out (`onRequestTimeout`: a 408, then the connection
 *   closes), checked every {@link DEADLINE_CHECK_INTERVAL_MS};
 * - an idle connection is closed after `keepAliveTimeoutMs` without traffic; one whose client
 *   has sent its FIN is closed once its answers are out;
 * - a client that does not read its answers stops being read until the socket drains, and one
 *   that sends more than 64 KiB ahead of a request still being handled, until it is answered.
 */
export interface SocketLane {
  /** Takes a connection the server has just accepted. */
  accept(socket: Socket): void;
  /**
   * Shutdown: idle connections and those holding only part of a head (no request yet) end now,
   * busy ones once their answers are out, a body still arriving may finish, and any further
   * request is handed to node:http (where Fastify answers 503 while it drains).
   */
  close(): void;
  /** As node:http's `closeIdleConnections()`: ends the connections with no request under way. */
  closeIdle(): void;
  /** As node:http's `closeAllConnections()`: ends every connection the lane holds, now. */
  destroyAll(): void;
}

export interface SocketLaneOptions {
  readonly logger: Logger;
  /** The routes, shared with the node lane. */
  readonly routes: LaneRoutes;
  readonly keepAliveTimeoutMs: number;
  /** node:http's `headersTimeout`: a head must be whole this long after its first byte (0: no limit). */
  readonly headersTimeoutMs: number;
  /** node:http's `requestTimeout`: a request must be whole, body included, this long after its first byte (0: no limit). */
  readonly requestTimeoutMs: number;
  /** The client's address of a request (`server.trusted_proxies`). */
  readonly clientAddress: ClientAddress;
  /** Gives a connection to node:http as if it had just accepted it. */
  readonly handOff: (socket: Socket) => void;
  /** Times out a connection whose request missed its deadline, as node:http would (a 408, then close). */
  readonly onRequestTimeout: (socket: Socket) => void;
}

/** One connection the lane is serving. */
interface Connection {
  readonly socket: Socket;
  /** Bytes read and not yet served. */
  chunks: Buffer[];
  bytes: number;
  /** When the first byte of a request not yet whole was seen (0: none is arriving). */
  since: number;
  /** How many bytes of a head not yet whole have been read and found to be a head's start so far. */
  checked: number;
  /** The head of a request whose body is still arriving, and its route. */
  head: RequestHead | null;
  route: GetRoute | PostRoute | null;
  /** A handler is still working on this connection's request: the next waits for its answer. */
  busy: boolean;
  /** Answers in the turn's batch, not yet written. */
  queued: number;
  /** The client has sent its FIN: no request will follow. */
  clientEnded: boolean;
  /** The socket holds more than its high-water mark unsent: reading waits for 'drain'. */
  stalled: boolean;
  /** Reading from the socket is paused (stalled, or too much pipelined behind a busy handler). */
  paused: boolean;
  handedOff: boolean;
  /** Its end is under way: nothing more will be read or served. */
  closing: boolean;
  /** Its listeners, to take them off when node:http takes over. */
  readonly listeners: readonly (readonly [string, SocketListener])[];
}

type SocketListener = Parameters<Socket['removeListener']>[1];

/**
 * How much a client may send ahead while a handler works on its request before the lane stops
 * reading from it: pipelined requests are small, and this keeps a flood from piling up in memory.
 */
const MAX_READ_AHEAD_BYTES = 64 * 1024;
/** Whether a string is printable ASCII, so a head holding it encodes the same as UTF-8 and latin1. */
const PRINTABLE_ASCII = /^[\x20-\x7e]*$/;

/** Whether an answer's own headers are printable ASCII (they should be), so its head encodes the same as UTF-8. */
const ownHeadersAscii = (answer: Answer): boolean => answer.headers === undefined || answer.headers.every((v) => PRINTABLE_ASCII.test(v));

/** The bytes read so far as one buffer. */
const joined = (c: Connection): Buffer => {
  if (c.chunks.length !== 1) c.chunks = [Buffer.concat(c.chunks, c.bytes)];
  return c.chunks[0] as Buffer;
};

/** Drops the first `n` bytes read, which have been served. */
const consume = (c: Connection, bytes: Buffer, n: number): void => {
  if (bytes.length > n) {
    c.chunks = [bytes.subarray(n)];
    c.bytes = bytes.length - n;
  } else {
    c.chunks = [];
    c.bytes = 0;
  }
};

export const createSocketLane = (opts: SocketLaneOptions): SocketLane => {
  const { routes, clientAddress, headersTimeoutMs, requestTimeoutMs } = opts;
  const deadlines = headersTimeoutMs > 0 || requestTimeoutMs > 0;
  const writeHead = createAnswerHeadWriter(opts.keepAliveTimeoutMs);
  const connections = new Set<Connection>();
  /** Connections whose request is arriving, for the deadline sweep. */
  const arriving = new Set<Connection>();
  let sweep: NodeJS.Timeout | undefined;
  let open = true;

  /** Ends a connection whose request missed node:http's deadline, as node:http would. */
  const timeOut = (c: Connection): void => {
    stopArriving(c);
    c.closing = true;
    connections.delete(c);
    if (c.queued > 0) batch.flush();
    opts.onRequestTimeout(c.socket);
  };

  /** Times out every request past its deadline; stops when none is arriving. */
  const sweepDeadlines = (): void => {
    const now = laneClock();
    for (const c of arriving) {
      const age = now - c.since;
      if ((requestTimeoutMs > 0 && age >= requestTimeoutMs) || (c.head === null && headersTimeoutMs > 0 && age >= headersTimeoutMs)) timeOut(c);
    }
    if (arriving.size === 0 && sweep !== undefined) {
      clearInterval(sweep);
      sweep = undefined;
    }
  };

  /**
   * A request has begun to arrive and is not whole: its deadlines run from now. Only a request
   * split across reads gets here; one that arrives whole costs nothing.
   */
  const startArriving = (c: Connection): void => {
    c.since = laneClock();
    if (!deadlines) return;
    arriving.add(c);
    sweep ??= setInterval(sweepDeadlines, DEADLINE_CHECK_INTERVAL_MS).unref();
  };

  const stopArriving = (c: Connection): void => {
    c.since = 0;
    arriving.delete(c);
  };

  /** Pauses or resumes reading from the socket as the connection's state asks. */
  const pace = (c: Connection): void => {
    const read = !c.stalled && !(c.busy && c.bytes > MAX_READ_AHEAD_BYTES);
    if (read === !c.paused) return;
    c.paused = !read;
    if (read) c.socket.resume();
    else c.socket.pause();
  };

  /** Whether a connection has no request under way: nothing read but part of a head, nothing being handled or written. */
  const isIdle = (c: Connection): boolean => !c.busy && c.queued === 0 && c.head === null && !c.stalled;

  /**
   * Closes a connection that has nothing left to do, once the client has ended or shutdown
   * began. At shutdown part of a head is not a request yet (no answer is owed), so it does not
   * hold the process up until its deadline; a body still arriving is a request, and may finish.
   */
  const settle = (c: Connection): void => {
    if (c.handedOff || c.closing || c.busy || c.queued > 0) return;
    if (c.clientEnded || (!open && isIdle(c))) {
      end(c);
    }
  };

  const end = (c: Connection): void => {
    c.closing = true;
    stopArriving(c);
    c.socket.destroySoon();
  };

  const writeAnswer = (c: Connection, route: LaneRoute, answer: Answer, started: number, origin: string | undefined): void => {
    c.queued--;
    const socket = c.socket;
    if (!socket.destroyed) {
      const bodyBytes = answerBodyBytes(answer);
      const head = writeHead(answer, bodyBytes, origin);
      const body = answer.body;
      // One write per answer where the head and body can share an encoding; else one writev.
      if (body === undefined) socket.write(head, 'latin1');
      else if (answer.bodyEncoding === 'latin1') socket.write(head + answer.body, 'latin1');
      else if (typeof body === 'string' && (origin === undefined || PRINTABLE_ASCII.test(origin)) && ownHeadersAscii(answer)) socket.write(head + body, 'utf8');
      else {
        socket.cork();
        socket.write(head, 'latin1');
        socket.write(body);
        socket.uncork();
      }
      if (!c.handedOff && !c.stalled && socket.writableLength > socket.writableHighWaterMark) {
        c.stalled = true;
        pace(c);
      }
    }
    route.record(answer.status, laneClock() - started);
    settle(c);
  };

  const batch = createTurnBatch(writeAnswer, (err, c: Connection, route: LaneRoute) => {
    // Only a bug in writing could land here; the other answers of the batch still go out.
    opts.logger.error({ err, route: route.route }, 'socket lane could not write an answer');
    c.socket.destroy();
  });

  const queue = (c: Connection, route: LaneRoute, answer: Answer, started: number, origin: string | undefined): void => {
    c.queued++;
    batch.push(c, route, answer, started, origin);
  };

  const handOff = (c: Connection): void => {
    c.handedOff = true;
    connections.delete(c);
    stopArriving(c);
    // This connection's earlier answers must reach the socket before node:http's first.
    if (c.queued > 0) batch.flush();
    const socket = c.socket;
    for (const [event, listener] of c.listeners) socket.removeListener(event, listener);
    socket.setTimeout(0);
    const unserved = c.bytes > 0 ? joined(c) : undefined;
    c.chunks = [];
    c.bytes = 0;
    opts.handOff(socket);
    // node:http reads on from here; the bytes already read reach its parser first, as a read
    // would, and so does a FIN that came before it took over.
    if (unserved !== undefined) socket.emit('data', unserved);
    if (c.clientEnded) socket.emit('end');
  };

  /** Serves every whole request read so far, in order, until one needs an answer that is not ready. */
  const serve = (c: Connection): void => {
    while (!c.busy && !c.stalled && !c.handedOff && !c.closing && c.bytes > 0) {
      if (c.head === null) {
        const reading = readRequestHead(joined(c), c.checked);
        if (reading === INCOMPLETE) {
          c.checked = c.bytes;
          if (c.since === 0) startArriving(c);
          break;
        }
        c.checked = 0;
        if (reading === UNSUPPORTED || !open) return handOff(c);
        const route = routes.match(reading.method, reading.target, reading.headers['content-type'], reading.contentLength);
        if (route === undefined) return handOff(c);
        c.head = reading;
        c.route = route;
      }
      const head = c.head;
      const route = c.route as GetRoute | PostRoute;
      const length = head.headBytes + head.contentLength;
      // The body is still arriving: wait for the rest (at most the route's body limit).
      if (c.bytes < length) {
        if (c.since === 0) startArriving(c);
        break;
      }
      if (c.since !== 0) stopArriving(c);
      const bytes = joined(c);
      const started = laneClock();
      const query = laneQuery(head.target);
      const headers = head.headers;
      const origin = headers.origin;
      const ip = clientAddress(c.socket.remoteAddress, headers['x-forwarded-for']);
      c.head = null;
      c.route = null;
      let answer: MaybePromise<Answer>;
      if (route.method === 'POST') {
        // Decoded once, whole, as Fastify does.
        const body = bytes.toString('utf8', head.headBytes, length);
        consume(c, bytes, length);
        answer = routes.run(route, route.handler, { query, headers, ip, body });
      } else {
        consume(c, bytes, length);
        answer = routes.run(route, route.handler, { query, headers, ip });
      }
      if (answer instanceof Promise) {
        // Answers go out in request order: the next request waits for this one's answer.
        c.busy = true;
        void answer.then((a) => {
          c.busy = false;
          queue(c, route, a, started, origin);
          // The client may have gone while the handler worked: nothing more to read for it.
          if (c.socket.destroyed) return;
          pace(c);
          serve(c);
        });
        return;
      }
      queue(c, route, answer, started, origin);
    }
    settle(c);
  };

  const accept = (socket: Socket): void => {
    if (!open) {
      opts.handOff(socket);
      return;
    }
    const listeners: [string, SocketListener][] = [];
    const c: Connection = {
      socket,
      chunks: [],
      bytes: 0,
      since: 0,
      checked: 0,
      head: null,
      route: null,
      busy: false,
      queued: 0,
      clientEnded: false,
      stalled: false,
      paused: false,
      handedOff: false,
      closing: false,
      listeners,
    };
    const on = (event: string, listener: SocketListener): void => {
      socket.on(event, listener);
      listeners.push([event, listener]);
    };
    on('data', (chunk: Buffer) => {
      c.chunks.push(chunk);
      c.bytes += chunk.length;
      if (c.busy) pace(c);
      else serve(c);
    });
    on('end', () => {
      c.clientEnded = true;
      settle(c);
    });
    on('drain', () => {
      if (!c.stalled) return;
      c.stalled = false;
      pace(c);
      serve(c);
    });
    on('timeout', () => {
      // Idle (or stuck mid-request) for the keep-alive timeout; a handler at work has its own timeouts.
      if (!c.busy && c.queued === 0) socket.destroy();
    });
    // A reset connection: nothing to answer any more ('close' follows).
    on('error', () => undefined);
    on('close', () => {
      connections.delete(c);
      stopArriving(c);
    });
    if (opts.keepAliveTimeoutMs > 0) socket.setTimeout(opts.keepAliveTimeoutMs);
    connections.add(c);
  };

  return {
    accept,
    close: () => {
      open = false;
      for (const c of connections) settle(c);
    },
    closeIdle: () => {
      for (const c of connections) if (!c.closing && isIdle(c) && c.bytes === 0) end(c);
    },
    destroyAll: () => {
      for (const c of connections) {
        c.closing = true;
        stopArriving(c);
        c.socket.destroy();
      }
      connections.clear();
    },
  };
};

/** What node:http writes when a request misses its deadline and no `clientError` listener answers it. */
const REQUEST_TIMEOUT_ANSWER = 'HTTP/1.1 408 Request Timeout\r\nConnection: close\r\n\r\n';

/**
 * Times out a connection's request as node:http does: its `clientError` event with an
 * `ERR_HTTP_REQUEST_TIMEOUT` error (Fastify's handler answers 408 on a connection that has not
 * been answered yet, then destroys it), or with no listener node's own 408, then the end.
 */
const timeOutAsNodeDoes = (server: Server, socket: Socket): void => {
  const err = Object.assign(new Error('Request timeout'), { code: 'ERR_HTTP_REQUEST_TIMEOUT' });
  if (server.emit('clientError', err, socket)) return;
  if (socket.writable) socket.write(REQUEST_TIMEOUT_ANSWER);
  socket.destroy(err);
};

/**
 * Makes a socket lane the first to see every connection `server` accepts: it takes node:http's own
 * connection listener, which it calls for each connection it hands over. If that listener is not
 * the only one (a Node.js whose http server works otherwise), no lane is made (undefined) and
 * node:http serves every connection, as it would without it.
 *
 * node:http's settings hold on the lane's connections too: its `headersTimeout` and
 * `requestTimeout` are read from the server, its `closeAllConnections()` and
 * `closeIdleConnections()` end the lane's connections as well as its own, and with
 * `maxRequestsPerSocket` set the lane stands aside (a new connection goes straight to node:http,
 * which alone can count a connection's requests and close it at the limit).
 */
export const putSocketLaneInFront = (
  server: Server,
  opts: Omit<SocketLaneOptions, 'handOff' | 'onRequestTimeout' | 'headersTimeoutMs' | 'requestTimeoutMs'>,
): SocketLane | undefined => {
  const listeners = server.listeners('connection') as ((socket: Socket) => void)[];
  const httpListener = listeners[0];
  if (listeners.length !== 1 || httpListener === undefined) return undefined;
  const handOff = (socket: Socket): void => {
    httpListener.call(server, socket);
  };
  const lane = createSocketLane({
    ...opts,
    headersTimeoutMs: server.headersTimeout,
    requestTimeoutMs: server.requestTimeout,
    handOff,
    onRequestTimeout: (socket) => timeOutAsNodeDoes(server, socket),
  });
  server.removeListener('connection', httpListener);
  server.on('connection', (socket: Socket) => {
    if (server.maxRequestsPerSocket !== null && server.maxRequestsPerSocket > 0) handOff(socket);
    else lane.accept(socket);
  });
  // node:http's own lists know only the connections it was handed: the lane's are ended with them.
  const closeAll = server.closeAllConnections.bind(server);
  const closeIdle = server.closeIdleConnections.bind(server);
  server.closeAllConnections = () => {
    lane.destroyAll();
    closeAll();
  };
  server.closeIdleConnections = () => {
    lane.closeIdle();
    closeIdle();
  };
  return lane;
};
