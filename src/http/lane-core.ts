import { performance } from 'node:perf_hooks';
import { parse as parseQuery } from 'fast-querystring';
import type { Logger } from '../core/logger.js';
import { mapMaybe } from '../core/maybe-promise.js';
import type { MaybePromise } from '../core/maybe-promise.js';
import { withKey } from '../core/own-keys.js';
import { errorAnswer, loggableCause } from './answer.js';
import type { Answer, AnswerHandler, AnswerRequest, BodyAnswerHandler, RouteHeaders } from './answer.js';
import type { RequestMetrics, RequestRecorder } from './request-metrics.js';

/**
 * What the two lanes share, written once: the routes they serve without Fastify (`node-lane.ts`
 * on node:http's request objects, `socket-lane.ts` on the connection's bytes), matching a
 * request to one of them (method, exact path, and for a POST whether its body is one a lane
 * reads), reading its query, and running its handler.
 */
export interface LaneRoutes {
  /**
   * Serves GET `path` with `handler` (the caller registers the same handler with Fastify); every
   * answer, errors included, carries the `headers` worked out from the request, if given.
   */
  get(path: string, handler: AnswerHandler, headers?: RouteHeaders): void;
  /** Serves POST `path` with `handler`, for bodies of at most `bodyLimit` bytes. */
  post(path: string, bodyLimit: number, handler: BodyAnswerHandler): void;
  /**
   * The route a lane serves a request with, or undefined when the request is not a lane's: the
   * method is GET or POST, the path (the target up to `?`) is exactly a route's, and for a POST
   * the body is plainly framed (`contentLength`, or -1 when no Content-Length frames it), within
   * the route's limit, JSON or text ({@link isLaneBody}).
   */
  match(method: string | undefined, target: string, contentType: string | undefined, contentLength: number): GetRoute | PostRoute | undefined;
  /**
   * Runs a handler: its answer, or the error answer if it throws or rejects (5xx logged with
   * their cause), with the route's own headers before any the answer has. Directly when the handler answered directly,
   * else a promise; never throws, never rejects.
   */
  run<R extends AnswerRequest>(route: LaneRoute, handler: (r: R) => MaybePromise<Answer>, request: R): MaybePromise<Answer>;
}

export interface LaneRoute {
  readonly route: string;
  readonly method: 'GET' | 'POST';
  readonly record: RequestRecorder;
  /** The headers every answer of the route carries, errors included. */
  readonly headers?: RouteHeaders;
}

export interface GetRoute extends LaneRoute {
  readonly method: 'GET';
  readonly handler: AnswerHandler;
}

export interface PostRoute extends LaneRoute {
  readonly method: 'POST';
  readonly handler: BodyAnswerHandler;
  readonly bodyLimit: number;
}

const NO_QUERY: Readonly<Record<string, unknown>> = Object.freeze({});

/**
 * The query of a request target (path, then `?query`), parsed as Fastify parses it (the same
 * library), so both ways read a query alike: a repeated parameter is an array.
 */
export const laneQuery = (target: string): Readonly<Record<string, unknown>> => {
  const mark = target.indexOf('?');
  return mark === -1 || mark === target.length - 1 ? NO_QUERY : parseQuery(target.slice(mark + 1));
};

/**
 * The Content-Types whose POST bodies the lanes read: what Prebid.js and servers send to the
 * cache (`text/plain` spares browsers a CORS preflight). Fastify takes any other, with its own
 * media-type validation (415 for a malformed one).
 */
const LANE_CONTENT_TYPE = /^(?:application\/json|text\/plain)(?:\s*;\s*charset=utf-8)?$/i;

/**
 * The longest body a lane reads itself; longer ones (still within the route's limit) go to
 * Fastify. A lane joins a body's chunks into one Buffer, allocated outside V8's heap: bodies of
 * hundreds of KB, one after another, fragment the C heap and keep RSS up after they are freed
 * (Node 24, RSS after 500 auctions with 500 KB bodies and 10,000 small ones: +41 to +52 MiB
 * with the big bodies on the lanes, +34 to +41 MiB with them sent to Fastify, which reads bodies
 * into strings). Hot-path bodies are a few KB.
 */
export const LANE_MAX_BODY_BYTES = 64 * 1024;

/**
 * Whether a lane reads a POST body of this Content-Type and length itself: a JSON or text body
 * within the route's limit and {@link LANE_MAX_BODY_BYTES}, or an empty one with no type. A
 * longer one stays Fastify's (which answers 413 beyond the route's limit).
 */
export const isLaneBody = (contentType: string | undefined, contentLength: number, bodyLimit: number): boolean =>
  contentLength >= 0 &&
  contentLength <= Math.min(bodyLimit, LANE_MAX_BODY_BYTES) &&
  (contentType === undefined ? contentLength === 0 : LANE_CONTENT_TYPE.test(contentType));

/**
 * How often deadlines are checked: the socket lane's sweep of requests still arriving, and
 * node:http's `connectionsCheckingInterval`. A deadline is honoured at most this late.
 */
export const DEADLINE_CHECK_INTERVAL_MS = 250;

/** Milliseconds since an arbitrary origin, for request durations. */
export const laneClock = (): number => performance.now();

export const createLaneRoutes = (opts: { readonly logger: Logger; readonly metrics: RequestMetrics }): LaneRoutes => {
  const gets = new Map<string, GetRoute>();
  const posts = new Map<string, PostRoute>();

  const failed = (route: LaneRoute, err: unknown): Answer => {
    const answer = errorAnswer(err);
    if (answer.status >= 500) opts.logger.error({ err: loggableCause(err), method: route.method, route: route.route }, String(answer.body));
    return answer;
  };

  return {
    get: (path, handler, headers) => {
      gets.set(path, { route: path, method: 'GET', handler, record: opts.metrics.forRoute(path, 'GET'), ...(headers !== undefined ? { headers } : {}) });
    },
    post: (path, bodyLimit, handler) => {
      posts.set(path, { route: path, method: 'POST', handler, bodyLimit, record: opts.metrics.forRoute(path, 'POST') });
    },
    match: (method, target, contentType, contentLength) => {
      const mark = target.indexOf('?');
      const path = mark === -1 ? target : target.slice(0, mark);
      if (method === 'GET') return gets.get(path);
      if (method !== 'POST') return undefined;
      const route = posts.get(path);
      return route !== undefined && isLaneBody(contentType, contentLength, route.bodyLimit) ? route : undefined;
    },

    run: (route, handler, request) => {
      let result: MaybePromise<Answer>;
      try {
        result = handler(request);
        if (result instanceof Promise) result = result.catch((err: unknown) => failed(route, err));
      } catch (err) {
        result = failed(route, err);
      }
      const own = route.headers?.(request);
      // The route's headers first, then the answer's own (a compressed answer's Content-Encoding), as Fastify sets them.
      return own === undefined ? result : mapMaybe(result, (answer) => withKey(answer, 'headers', answer.headers === undefined ? own : [...own, ...answer.headers]));
    },
  };
};
