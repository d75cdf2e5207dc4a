import type { IncomingMessage, ServerResponse } from 'node:http';
import type { Logger } from '../core/logger.js';
import type { MaybePromise } from '../core/maybe-promise.js';
import { answerBodyBytes } from './answer.js';
import type { Answer } from './answer.js';
import { ALLOW_CREDENTIALS, ALLOW_ORIGIN, ANSWER_HEADERS } from './cors.js';
import { isLaneBody, laneClock, laneQuery } from './lane-routes.js';
import type { LaneRoute, LaneRoutes, PostRoute } from './lane-routes.js';
import { createTurnBatch } from './turn-batch.js';

/**
 * A way around Fastify for the hottest routes (`GET /cache`, `/storage`, `/event`, `/vtrack`;
 * `POST /cache`, `/vtrack`) on connections node:http serves: the ones the wire lane
 * (`wire-lane.ts`) has handed over. The request is answered straight from node:http, with the
 * same headers, errors and metrics as the Fastify route of the same path, which stays registered
 * and serves every request the lane passes on.
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
  /** Answers `req` if it is the lane's; false leaves it untouched for Fastify. */
  serve(req: IncomingMessage, res: ServerResponse): boolean;
  /** Passes every later request to Fastify, which answers 503 while it drains. */
  close(): void;
}

export interface FastLaneOptions {
  readonly logger: Logger;
  /** The routes, shared with the wire lane. */
  readonly routes: LaneRoutes;
  /** False turns the lane off (with access logs on, every request goes through Fastify's logging). */
  readonly enabled: boolean;
}

// The headers every answer starts with, flattened once as `writeHead` takes them.
const BASE_HEADERS: readonly string[] = ANSWER_HEADERS.flat();

/** Whether a POST's body is one the lane reads: framed by a Content-Length, JSON or text, within the limit. */
const isPlainBody = (req: IncomingMessage, route: PostRoute): boolean => {
  const headers = req.headers;
  const contentLength = headers['content-length'];
  // Node has already refused a malformed Content-Length, or one alongside Transfer-Encoding.
  return contentLength !== undefined && headers['transfer-encoding'] === undefined && isLaneBody(headers['content-type'], Number(contentLength), route.bodyLimit);
};

const writeAnswer = (req: IncomingMessage, res: ServerResponse, route: LaneRoute, answer: Answer, started: number): void => {
  const headers = BASE_HEADERS.slice();
  const origin = req.headers.origin;
  if (origin !== undefined) headers.push(ALLOW_ORIGIN, origin, ...ALLOW_CREDENTIALS);
  if (answer.contentType !== undefined) headers.push('content-type', answer.contentType);
  headers.push('content-length', String(answerBodyBytes(answer)));
  res.writeHead(answer.status, headers);
  // A string body goes out in the same socket write as the head.
  if (answer.bodyEncoding === 'latin1') res.end(answer.body, 'latin1');
  else res.end(answer.body);
  route.record(answer.status, laneClock() - started);
};

export const createFastLane = (opts: FastLaneOptions): FastLane => {
  const { routes } = opts;
  let open = opts.enabled;

  const batch = createTurnBatch(writeAnswer, (err, _req, res: ServerResponse, route: LaneRoute) => {
    // Only a bug in writing could land here; the other answers of the batch still go out.
    opts.logger.error({ err, route: route.route }, 'fast lane could not write an answer');
    res.destroy();
  });

  /** Queues an answer for the turn's batch, now or once the handler's promise settles. */
  const queue = (req: IncomingMessage, res: ServerResponse, route: LaneRoute, answer: MaybePromise<Answer>, started: number): void => {
    if (answer instanceof Promise) void answer.then((a) => batch.push(req, res, route, a, started));
    else batch.push(req, res, route, answer, started);
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
      queue(req, res, route, routes.run(route, route.handler, { query, headers: req.headers, body }), started);
    });
    req.on('error', () => {
      // The client went away mid-body (Node reports it as an 'aborted' error); the socket is gone.
      res.destroy();
    });
  };

  return {
    serve: (req, res) => {
      if (!open) return false;
      const method = req.method;
      if (method !== 'GET' && method !== 'POST') return false;
      const url = req.url ?? '';
      const mark = url.indexOf('?');
      const path = mark === -1 ? url : url.slice(0, mark);
      const route = method === 'GET' ? routes.findGet(path) : routes.findPost(path);
      if (route === undefined) return false;
      if (route.method === 'POST' && !isPlainBody(req, route)) return false;
      const started = laneClock();
      const query = laneQuery(url, mark);
      if (route.method === 'POST') answerWithBody(req, res, route, query, started);
      else queue(req, res, route, routes.run(route, route.handler, { query, headers: req.headers }), started);
      return true;
    },

    close: () => {
      open = false;
    },
  };
};
