import type { Server } from 'node:http';
import type { Socket } from 'node:net';
import type { Logger } from '../core/logger.js';
import type { MaybePromise } from '../core/maybe-promise.js';
import { answerBodyBytes } from './answer.js';
import type { Answer } from './answer.js';
import { createAnswerHeadWriter } from './answer-head.js';
import { isLaneBody, laneClock, laneQuery } from './lane-routes.js';
import type { GetRoute, LaneRoute, LaneRoutes, PostRoute } from './lane-routes.js';
import { INCOMPLETE, UNSUPPORTED, readRequestHead } from './request-head.js';
import type { RequestHead } from './request-head.js';
import { createTurnBatch } from './turn-batch.js';

/**
 * The hottest routes served straight from the connection's bytes, before node:http builds its
 * request and response objects: each connection starts here, and its requests are read
 * (`request-head.ts`) and answered here for as long as they are the lane's. The first request
 * that is not (another path or method, HEAD, a chunked or oversized body, another content type,
 * `Connection: close`, HTTP/1.0, anything `request-head.ts` does not read, or any request once
 * shutdown has begun) hands the whole connection to node:http, with the bytes not yet served, as
 * if node:http had accepted it: from then on node:http, the fast lane and Fastify serve it.
 *
 * Why: node:http's per-request objects, events and header handling cost about a third of a bare
 * node:http server's CPU on a small request; reading a plain head and writing the answer's bytes
 * costs a fraction of that (README, "Performance"). Everything unusual stays node:http's, so its
 * parser's checks, statuses and timeouts stay the only ones.
 *
 * Contract:
 * - answers go out in request order (a pipelined request waits for the answer before it);
 * - handing off happens only between requests, after this connection's answers are written;
 *   a head still not whole a second after its first bytes came is handed off too, so node:http's
 *   `headersTimeout` bounds a client that trickles it;
 * - an idle connection is closed after `keepAliveTimeoutMs` without traffic; one whose client
 *   has sent its FIN is closed once its answers are out;
 * - a client that does not read its answers stops being read until the socket drains, and one
 *   that sends more than 64 KiB ahead of a request still being handled, until it is answered.
 */
export interface WireLane {
  /** Takes a connection the server has just accepted. */
  accept(socket: Socket): void;
  /**
   * Shutdown: idle connections end now, busy ones once their answers are out, and any further
   * request is handed to node:http (where Fastify answers 503 while it drains).
   */
  close(): void;
}

export interface WireLaneOptions {
  readonly logger: Logger;
  /** The routes, shared with the fast lane. */
  readonly routes: LaneRoutes;
  readonly keepAliveTimeoutMs: number;
  /** Gives a connection to node:http as if it had just accepted it. */
  readonly handOff: (socket: Socket) => void;
}

/** One connection the lane is serving. */
interface Connection {
  readonly socket: Socket;
  /** Bytes read and not yet served. */
  chunks: Buffer[];
  bytes: number;
  /** When the bytes of a head not yet whole began to wait (0: none waiting). */
  headSince: number;
  /** The head of a request whose body is still arriving, with its route and where its query starts. */
  head: RequestHead | null;
  route: GetRoute | PostRoute | null;
  queryMark: number;
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
/**
 * How long a head may take to arrive whole before the connection goes to node:http, whose
 * `headersTimeout` then bounds it: a client trickling a head byte by byte cannot hold the lane
 * longer than node:http would hold it. A head split by the network arrives within milliseconds.
 */
const MAX_HEAD_WAIT_MS = 1000;

/** Whether a string is printable ASCII, so a head holding it encodes the same as UTF-8 and latin1. */
const PRINTABLE_ASCII = /^[\x20-\x7e]*$/;

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

export const createWireLane = (opts: WireLaneOptions): WireLane => {
  const { routes } = opts;
  const writeHead = createAnswerHeadWriter(opts.keepAliveTimeoutMs);
  const connections = new Set<Connection>();
  let open = true;

  /** Pauses or resumes reading from the socket as the connection's state asks. */
  const pace = (c: Connection): void => {
    const read = !c.stalled && !(c.busy && c.bytes > MAX_READ_AHEAD_BYTES);
    if (read === !c.paused) return;
    c.paused = !read;
    if (read) c.socket.resume();
    else c.socket.pause();
  };

  /** Closes a connection that has nothing left to do, once the client has ended or shutdown began. */
  const settle = (c: Connection): void => {
    if (c.handedOff || c.closing || c.busy || c.queued > 0) return;
    if (c.clientEnded || (!open && c.bytes === 0)) {
      c.closing = true;
      c.socket.destroySoon();
    }
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
      else if (typeof body === 'string' && (origin === undefined || PRINTABLE_ASCII.test(origin))) socket.write(head + body, 'utf8');
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
    opts.logger.error({ err, route: route.route }, 'wire lane could not write an answer');
    c.socket.destroy();
  });

  const queue = (c: Connection, route: LaneRoute, answer: Answer, started: number, origin: string | undefined): void => {
    c.queued++;
    batch.push(c, route, answer, started, origin);
  };

  const handOff = (c: Connection): void => {
    c.handedOff = true;
    connections.delete(c);
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
        const reading = readRequestHead(joined(c));
        if (reading === INCOMPLETE) {
          if (c.headSince === 0) c.headSince = laneClock();
          else if (laneClock() - c.headSince > MAX_HEAD_WAIT_MS) return handOff(c);
          break;
        }
        c.headSince = 0;
        if (reading === UNSUPPORTED || !open) return handOff(c);
        const target = reading.target;
        const mark = target.indexOf('?');
        const path = mark === -1 ? target : target.slice(0, mark);
        const route = reading.method === 'GET' ? routes.findGet(path) : routes.findPost(path);
        if (route === undefined || (route.method === 'POST' && !isLaneBody(reading.headers['content-type'], reading.contentLength, route.bodyLimit))) {
          return handOff(c);
        }
        c.head = reading;
        c.route = route;
        c.queryMark = mark;
      }
      const head = c.head;
      const route = c.route as GetRoute | PostRoute;
      const length = head.headBytes + head.contentLength;
      // The body is still arriving: wait for the rest (at most the route's body limit).
      if (c.bytes < length) break;
      const bytes = joined(c);
      const started = laneClock();
      const query = laneQuery(head.target, c.queryMark);
      const headers = head.headers;
      const origin = headers.origin;
      c.head = null;
      c.route = null;
      let answer: MaybePromise<Answer>;
      if (route.method === 'POST') {
        // Decoded once, whole, as Fastify does.
        const body = bytes.toString('utf8', head.headBytes, length);
        consume(c, bytes, length);
        answer = routes.run(route, route.handler, { query, headers, body });
      } else {
        consume(c, bytes, length);
        answer = routes.run(route, route.handler, { query, headers });
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
      headSince: 0,
      head: null,
      route: null,
      queryMark: -1,
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
  };
};

/**
 * Makes a wire lane the first to see every connection `server` accepts: it takes node:http's own
 * connection listener, which it calls for each connection it hands over. If that listener is not
 * the only one (a Node.js whose http server works otherwise), no lane is made (undefined) and
 * node:http serves every connection, as it would without it.
 */
export const putWireLaneInFront = (server: Server, opts: Omit<WireLaneOptions, 'handOff'>): WireLane | undefined => {
  const listeners = server.listeners('connection') as ((socket: Socket) => void)[];
  const httpListener = listeners[0];
  if (listeners.length !== 1 || httpListener === undefined) return undefined;
  const lane = createWireLane({ ...opts, handOff: (socket) => httpListener.call(server, socket) });
  server.removeListener('connection', httpListener);
  server.on('connection', (socket: Socket) => lane.accept(socket));
  return lane;
};
