import type { IncomingMessage, ServerResponse } from 'node:http';
import { performance } from 'node:perf_hooks';
import { parse as parseQuery } from 'fast-querystring';
import type { Logger } from '../core/logger.js';
import { errorAnswer, loggableCause } from './answer.js';
import type { Answer, AnswerHandler, AnswerRequest } from './answer.js';
import { ALLOW_CREDENTIALS, ALLOW_ORIGIN, ANSWER_HEADERS } from './cors.js';
import type { RequestMetrics, RequestRecorder } from './request-metrics.js';

/**
 * A way around Fastify for the hottest GET routes (`/cache`, `/storage`, `/event`): the request
 * is answered straight from node:http, with the same headers, errors and metrics as the Fastify
 * route of the same path, which stays registered and serves every request the lane passes on.
 *
 * Why: on these routes the work itself is a map lookup, and Fastify's per-request machinery
 * (request and reply objects, hooks, promise plumbing) cost a quarter of a bare server's
 * throughput; the lane costs a query parse and one `writeHead` (README, "Performance").
 *
 * Contract: `serve` answers only a GET whose path is exactly a lane path and returns true; for
 * anything else (another method, HEAD, a trailing slash, an encoded path, access logs on, or
 * shutdown begun) it touches nothing and returns false, and Fastify serves the request.
 */
export interface FastLane {
  /** Serves GET `path` with `handler` too (the caller registers the same handler with Fastify). */
  get(path: string, handler: AnswerHandler): void;
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
  readonly handler: AnswerHandler;
  readonly record: RequestRecorder;
}

const NO_QUERY: Readonly<Record<string, unknown>> = Object.freeze({});
// The headers every answer starts with, flattened once as `writeHead` takes them.
const BASE_HEADERS: readonly string[] = ANSWER_HEADERS.flat();

export const createFastLane = (opts: FastLaneOptions): FastLane => {
  const routes = new Map<string, LaneRoute>();
  let open = opts.enabled;

  const write = (req: IncomingMessage, res: ServerResponse, route: LaneRoute, answer: Answer, started: number): void => {
    const headers = BASE_HEADERS.slice();
    const origin = req.headers.origin;
    if (origin !== undefined) headers.push(ALLOW_ORIGIN, origin, ...ALLOW_CREDENTIALS);
    const body = answer.body;
    if (answer.contentType !== undefined) headers.push('content-type', answer.contentType);
    headers.push('content-length', String(body === undefined ? 0 : typeof body === 'string' ? Buffer.byteLength(body) : body.length));
    res.writeHead(answer.status, headers);
    res.end(body);
    route.record(answer.status, performance.now() - started);
  };

  const fail = (req: IncomingMessage, res: ServerResponse, route: LaneRoute, err: unknown, started: number): void => {
    const answer = errorAnswer(err);
    if (answer.status >= 500) opts.logger.error({ err: loggableCause(err), method: 'GET', route: route.route }, String(answer.body));
    write(req, res, route, answer, started);
  };

  return {
    get: (path, handler) => {
      routes.set(path, { route: path, handler, record: opts.metrics.forRoute(path, 'GET') });
    },

    serve: (req, res) => {
      if (!open || req.method !== 'GET') return false;
      const url = req.url ?? '';
      const mark = url.indexOf('?');
      const route = routes.get(mark === -1 ? url : url.slice(0, mark));
      if (route === undefined) return false;
      const started = performance.now();
      // The parser Fastify uses, so both paths read a query the same way.
      const request: AnswerRequest = { query: mark === -1 || mark === url.length - 1 ? NO_QUERY : parseQuery(url.slice(mark + 1)), headers: req.headers };
      let answer: Answer | Promise<Answer>;
      try {
        answer = route.handler(request);
      } catch (err) {
        fail(req, res, route, err, started);
        return true;
      }
      if (answer instanceof Promise) {
        answer.then(
          (a) => write(req, res, route, a, started),
          (err: unknown) => fail(req, res, route, err, started),
        ).catch((err: unknown) => {
          // Only a bug in writing could land here; never leave the socket waiting for an answer.
          opts.logger.error({ err, route: route.route }, 'fast lane could not write an answer');
          res.destroy();
        });
      } else {
        write(req, res, route, answer, started);
      }
      return true;
    },

    close: () => {
      open = false;
    },
  };
};
