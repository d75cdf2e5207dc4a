import type { IncomingMessage, ServerResponse } from 'node:http';
import { performance } from 'node:perf_hooks';
import { parse as parseQuery } from 'fast-querystring';
import type { Logger } from '../core/logger.js';
import type { MaybePromise } from '../core/maybe-promise.js';
import { answerBodyBytes, errorAnswer, loggableCause } from './answer.js';
import type { Answer, AnswerHandler, BodyAnswerHandler } from './answer.js';
import { ALLOW_CREDENTIALS, ALLOW_ORIGIN, ANSWER_HEADERS } from './cors.js';
import type { RequestMetrics, RequestRecorder } from './request-metrics.js';

/**
 * A way around Fastify for the hottest routes (`GET /cache`, `/storage`, `/event`, `/vtrack`;
 * `POST /cache`, `/vtrack`): the request is answered straight from node:http, with the same
 * headers, errors and metrics as the Fastify route of the same path, which stays registered and
 * serves every request the lane passes on.
 *
 * Why: on these routes the work itself is a map lookup or a small write, and Fastify's
 * per-request machinery (request and reply objects, hooks, content-type parsing, promise
 * plumbing) cost a quarter of a bare server's throughput or more; the lane costs a query parse,
 * reading the body and one `writeHead` (README, "Performance").
 *
 * Contract: `serve` answers only a GET or POST whose path is exactly a lane path and returns
 * true; for anything else it touches nothing and returns false, and Fastify serves the request.
 * "Anything else" is: another method, HEAD, a trailing slash, an encoded path, access logs on,
 * shutdown begun; and for POST, a body that is not plainly framed and small enough (chunked, no
 * Content-Length, over the route's limit) or a Content-Type other than JSON or plain text, so
 * Fastify's 413 and 415 answers and its content-type rules stay the only ones.
 */
export interface FastLane {
  /** Serves GET `path` with `handler` too (the caller registers the same handler with Fastify). */
  get(path: string, handler: AnswerHandler): void;
  /** Serves POST `path` with `handler` too, for bodies of at most `bodyLimit` bytes. */
  post(path: string, bodyLimit: number, handler: BodyAnswerHandler): void;
  /** Answers `req` if it is the lane's; false leaves it untouched for Fastify. */
  serve(req: IncomingMessage, res: ServerResponse): boolean;
  /** Passes every later request to Fastify, which answers 503 while it drains. */
  close(): void;
}

export interface FastLaneOptions {
  readonly logger: Logger;
  readonly metrics: RequestMetrics;
  /** False turns the lane off (with access logs on, every request goes through Fastify's logging). */
  readonly enabled: boolean;
}

interface LaneRoute {
  readonly route: string;
  readonly record: RequestRecorder;
}

interface GetRoute extends LaneRoute {
  readonly method: 'GET';
  readonly handler: AnswerHandler;
}

interface PostRoute extends LaneRoute {
  readonly method: 'POST';
  readonly handler: BodyAnswerHandler;
  readonly bodyLimit: number;
}

const NO_QUERY: Readonly<Record<string, unknown>> = Object.freeze({});
/**
 * The most answers held back in one turn: the batch is written as soon as it has this many, so
 * under thousands of connections the first answer of a turn waits for at most 31 others to be
 * handled (under 1 ms of `POST /cache` work), not for the whole turn. At 64 connections 32
 * measured the same throughput as no bound, 16 −2%, 4 −17% (README, "Performance").
 */
export const MAX_TURN_BATCH = 32;
/** Slots one waiting answer takes in the lane's flat queue (req, res, route, answer, started). */
const PENDING_SLOTS = 5;
// The headers every answer starts with, flattened once as `writeHead` takes them.
const BASE_HEADERS: readonly string[] = ANSWER_HEADERS.flat();
/**
 * The Content-Types whose POST bodies the lane reads: what Prebid.js and servers send to the
 * cache (`text/plain` spares browsers a CORS preflight). Fastify takes any other, with its own
 * media-type validation (415 for a malformed one).
 */
const LANE_CONTENT_TYPE = /^(?:application\/json|text\/plain)(?:\s*;\s*charset=utf-8)?$/i;

/** Whether a POST's body is one the lane reads: framed by a Content-Length within the limit. */
const isPlainBody = (req: IncomingMessage, bodyLimit: number): boolean => {
  const headers = req.headers;
  const contentType = headers['content-type'];
  const contentLength = headers['content-length'];
  // Node has already refused a malformed Content-Length, or one alongside Transfer-Encoding.
  return (
    contentLength !== undefined &&
    headers['transfer-encoding'] === undefined &&
    Number(contentLength) <= bodyLimit &&
    (contentType === undefined ? contentLength === '0' : LANE_CONTENT_TYPE.test(contentType))
  );
};

export const createFastLane = (opts: FastLaneOptions): FastLane => {
  const gets = new Map<string, GetRoute>();
  const posts = new Map<string, PostRoute>();
  let open = opts.enabled;

  const writeNow = (req: IncomingMessage, res: ServerResponse, route: LaneRoute, answer: Answer, started: number): void => {
    const headers = BASE_HEADERS.slice();
    const origin = req.headers.origin;
    if (origin !== undefined) headers.push(ALLOW_ORIGIN, origin, ...ALLOW_CREDENTIALS);
    if (answer.contentType !== undefined) headers.push('content-type', answer.contentType);
    headers.push('content-length', String(answerBodyBytes(answer)));
    res.writeHead(answer.status, headers);
    // A string body goes out in the same socket write as the head.
    if (answer.bodyEncoding === 'latin1') res.end(answer.body, 'latin1');
    else res.end(answer.body);
    route.record(answer.status, performance.now() - started);
  };

  // Answers ready in this event-loop turn, flat: PENDING_SLOTS slots each (req, res, route,
  // answer, started), so queuing one makes no object of its own.
  let pending: unknown[] = [];
  const writePending = (): void => {
    const batch = pending;
    pending = [];
    for (let i = 0; i < batch.length; i += PENDING_SLOTS) {
      const req = batch[i] as IncomingMessage;
      const res = batch[i + 1] as ServerResponse;
      const route = batch[i + 2] as LaneRoute;
      try {
        writeNow(req, res, route, batch[i + 3] as Answer, batch[i + 4] as number);
      } catch (err) {
        // Only a bug in writing could land here; the other answers of the batch still go out.
        opts.logger.error({ err, route: route.route }, 'fast lane could not write an answer');
        res.destroy();
      }
    }
  };
  /**
   * Writes an answer at the end of this event-loop turn (`setImmediate`), together with every
   * other answer ready by then, instead of at once. Why: a socket write that finds its reader
   * asleep pays to wake it (on loopback the reader's whole receive path runs in the writer's
   * system call), and answers written one by one as each request is read wake it once each; in a
   * burst, once. With the load generator on the same host this measured +50% on `POST /cache`
   * and +10–30% on `GET /cache`, and a bare node:http server doing the same gains about as much
   * (README, "Performance"): it saves CPU when clients are on the same host (a sidecar proxy, a
   * local load balancer), not work of openbid's own. An answer waits only for the other requests
   * read in the same turn to be handled, which the loop was busy with anyway, and for at most
   * `MAX_TURN_BATCH - 1` of them; it never waits for new I/O.
   */
  const write = (req: IncomingMessage, res: ServerResponse, route: LaneRoute, answer: Answer, started: number): void => {
    if (pending.length === 0) setImmediate(writePending);
    pending.push(req, res, route, answer, started);
    if (pending.length === MAX_TURN_BATCH * PENDING_SLOTS) writePending();
  };

  const fail = (req: IncomingMessage, res: ServerResponse, route: GetRoute | PostRoute, err: unknown, started: number): void => {
    const answer = errorAnswer(err);
    if (answer.status >= 500) opts.logger.error({ err: loggableCause(err), method: route.method, route: route.route }, String(answer.body));
    write(req, res, route, answer, started);
  };

  /** Runs a handler and writes what it answers, now or when its promise settles. */
  const answer = <R>(req: IncomingMessage, res: ServerResponse, route: GetRoute | PostRoute, handler: (r: R) => MaybePromise<Answer>, request: R, started: number): void => {
    let result: MaybePromise<Answer>;
    try {
      result = handler(request);
    } catch (err) {
      fail(req, res, route, err, started);
      return;
    }
    if (result instanceof Promise) {
      result
        .then(
          (a) => write(req, res, route, a, started),
          (err: unknown) => fail(req, res, route, err, started),
        )
        .catch((err: unknown) => {
          // Only a bug in turning the error into an answer could land here (writing happens later,
          // in writePending); never leave the socket waiting for an answer.
          opts.logger.error({ err, route: route.route }, 'fast lane could not write an answer');
          res.destroy();
        });
    } else {
      write(req, res, route, result, started);
    }
  };

  /** Reads the whole body, then answers; an aborted upload has nobody left to answer. */
  const answerWithBody = (req: IncomingMessage, res: ServerResponse, route: PostRoute, query: Readonly<Record<string, unknown>>, started: number): void => {
    let first: Buffer | undefined;
    let more: Buffer[] | undefined;
    req.on('data', (chunk: Buffer) => {
      if (first === undefined) first = chunk;
      else (more ??= [first]).push(chunk);
    });
    req.on('end', () => {
      // Decoded once, whole, so a character split across chunks stays intact (as Fastify does).
      const body = more !== undefined ? Buffer.concat(more).toString('utf8') : first === undefined ? '' : first.toString('utf8');
      answer(req, res, route, route.handler, { query, headers: req.headers, body }, started);
    });
    req.on('error', () => {
      // The client went away mid-body (Node reports it as an 'aborted' error); the socket is gone.
      res.destroy();
    });
  };

  return {
    get: (path, handler) => {
      gets.set(path, { route: path, method: 'GET', handler, record: opts.metrics.forRoute(path, 'GET') });
    },

    post: (path, bodyLimit, handler) => {
      posts.set(path, { route: path, method: 'POST', handler, bodyLimit, record: opts.metrics.forRoute(path, 'POST') });
    },

    serve: (req, res) => {
      if (!open) return false;
      const method = req.method;
      if (method !== 'GET' && method !== 'POST') return false;
      const url = req.url ?? '';
      const mark = url.indexOf('?');
      const path = mark === -1 ? url : url.slice(0, mark);
      const route = method === 'GET' ? gets.get(path) : posts.get(path);
      if (route === undefined) return false;
      if (route.method === 'POST' && !isPlainBody(req, route.bodyLimit)) return false;
      const started = performance.now();
      // The parser Fastify uses, so both paths read a query the same way.
      const query = mark === -1 || mark === url.length - 1 ? NO_QUERY : parseQuery(url.slice(mark + 1));
      if (route.method === 'POST') answerWithBody(req, res, route, query, started);
      else answer(req, res, route, route.handler, { query, headers: req.headers }, started);
      return true;
    },

    close: () => {
      open = false;
    },
  };
};
