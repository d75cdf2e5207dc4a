import { createServer } from 'node:http';
import Fastify, { LogController } from 'fastify';
import type { FastifyBaseLogger, FastifyError, FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import type { Logger } from '../core/logger.js';
import type { Metrics } from '../metrics/metrics.js';
import { errorAnswer, loggableCause, TEXT_PLAIN } from './answer.js';
import type { Answer, AnswerHandler, BodyAnswerHandler } from './answer.js';
import { registerCors } from './cors.js';
import { acceptAnyBodyAsText } from './raw-body.js';
import { createFastLane } from './fast-lane.js';
import type { FastLane } from './fast-lane.js';
import { createLaneRoutes } from './lane-routes.js';
import { putWireLaneInFront } from './wire-lane.js';
import type { WireLane } from './wire-lane.js';
import { createRequestMetrics } from './request-metrics.js';
import type { RequestMetrics, RequestRecorder } from './request-metrics.js';

export interface HttpServerOptions {
  readonly logger: Logger;
  readonly metrics: Metrics;
  readonly accessLog: boolean;
  /** Requests slower than this are logged as warnings; 0 disables. */
  readonly slowRequestMs: number;
  readonly keepAliveTimeoutMs: number;
}

/** The Fastify instance every route plugs into, and the two lanes in front of it. */
export interface HttpServer {
  readonly fastify: FastifyInstance;
  /**
   * Registers a GET route written as an {@link AnswerHandler}: with Fastify (HEAD, trailing
   * slash, access logs, `inject`) and with the lanes, which serve plain GETs without Fastify.
   */
  answerGet(path: string, handler: AnswerHandler): void;
  /**
   * Registers a POST route written as a {@link BodyAnswerHandler}, for bodies of any Content-Type
   * read as text, up to `bodyLimit` bytes (413 beyond): with Fastify, and with the lanes,
   * which read plainly framed JSON and text bodies themselves.
   */
  answerPost(path: string, bodyLimit: number, handler: BodyAnswerHandler): void;
}

/**
 * The HTTP server: Fastify with error handling (plain-text bodies, statuses from
 * `error-status.ts`), CORS for browser callers, request metrics and slow-request logs; and in
 * front of it, on the same node:http server, the wire lane (every connection first) and the fast
 * lane (on the connections node:http holds) for the hottest routes.
 */
export const createHttpServer = (opts: HttpServerOptions): HttpServer => {
  const requestMetrics = createRequestMetrics(opts);
  const routes = createLaneRoutes({ logger: opts.logger, metrics: requestMetrics });
  // With access logs on, every request goes through Fastify, which writes them.
  const lanesOn = !opts.accessLog;
  const lane = createFastLane({ logger: opts.logger, routes, enabled: lanesOn });
  let wire: WireLane | undefined;
  const fastify = Fastify({
    loggerInstance: opts.logger as unknown as FastifyBaseLogger,
    logController: new LogController({ disableRequestLogging: !opts.accessLog }),
    requestIdHeader: false,
    keepAliveTimeout: opts.keepAliveTimeoutMs,
    return503OnClosing: true,
    forceCloseConnections: 'idle',
    routerOptions: { ignoreTrailingSlash: true },
    serverFactory: (handler, options) => {
      const server = serverWithLane(lane, handler, options);
      if (lanesOn) wire = putWireLaneInFront(server, { logger: opts.logger, routes, keepAliveTimeoutMs: opts.keepAliveTimeoutMs });
      return server;
    },
    // A pino child per request (for its reqId) costs a third of a bare server's throughput; only
    // access logs use it, so without them every request shares the root logger.
    ...(opts.accessLog ? {} : { childLoggerFactory: (logger: FastifyBaseLogger) => logger }),
  });
  // Once closing has begun, Fastify answers every new request 503 (Connection: close).
  fastify.addHook('preClose', (done) => {
    lane.close();
    wire?.close();
    done();
  });

  registerCors(fastify);
  registerRequestMetrics(fastify, requestMetrics);
  fastify.setErrorHandler((err: FastifyError, req, reply) => sendError(err, req, reply, opts.logger));
  fastify.setNotFoundHandler((req, reply) => {
    void reply.code(404).type(TEXT_PLAIN).send(`Not found: ${req.method} ${req.url.split('?')[0] ?? ''}`);
  });
  return {
    fastify,
    answerGet: (path, handler) => {
      fastify.get(path, async (req, reply) => sendAnswer(reply, await handler({ query: req.query as Record<string, unknown>, headers: req.headers })));
      routes.get(path, handler);
    },
    answerPost: (path, bodyLimit, handler) => {
      void fastify.register((scope, _o, done) => {
        acceptAnyBodyAsText(scope);
        scope.post(path, { bodyLimit }, async (req, reply) =>
          sendAnswer(reply, await handler({ query: req.query as Record<string, unknown>, headers: req.headers, body: typeof req.body === 'string' ? req.body : '' })),
        );
        done();
      });
      routes.post(path, bodyLimit, handler);
    },
  };
};

/** The node:http server Fastify would create, with the lane asked first. */
const serverWithLane = (lane: FastLane, handler: Parameters<typeof createServer>[1] & object, options: Record<string, unknown>) => {
  const server = createServer((req, res) => {
    if (!lane.serve(req, res)) handler(req, res);
  });
  // The settings Fastify applies to a server it creates itself.
  server.keepAliveTimeout = options.keepAliveTimeout as number;
  server.requestTimeout = options.requestTimeout as number;
  server.setTimeout(options.connectionTimeout as number);
  return server;
};

/**
 * Writes an answer through Fastify exactly as the lanes write it. A string body goes as
 * bytes: given a string, Fastify would append `; charset=utf-8` to a JSON content type, and
 * `GET /cache` answers a JSON value as plain `application/json`, as Prebid Cache does.
 */
export const sendAnswer = (reply: FastifyReply, answer: Answer): FastifyReply => {
  void reply.code(answer.status);
  if (answer.contentType !== undefined) void reply.type(answer.contentType);
  const body = answer.body;
  return reply.send(typeof body === 'string' ? Buffer.from(body, answer.bodyEncoding ?? 'utf8') : body);
};

/** Writes an error as `text/plain`; 5xx are logged, 4xx are the caller's business. */
const sendError = (err: FastifyError, req: FastifyRequest, reply: FastifyReply, logger: Logger): void => {
  let answer: Answer;
  if (err.code === 'FST_ERR_CTP_BODY_TOO_LARGE') {
    answer = { status: 413, contentType: TEXT_PLAIN, body: `Request body is larger than the limit of ${String(req.routeOptions.bodyLimit)} bytes.` };
  } else if (typeof err.statusCode === 'number' && err.statusCode >= 400 && err.statusCode < 500) {
    // Fastify's own client errors (malformed headers, unsupported media type...).
    answer = { status: err.statusCode, contentType: TEXT_PLAIN, body: err.message };
  } else {
    answer = errorAnswer(err);
  }
  if (answer.status >= 500) logger.error({ err: loggableCause(err), method: req.method, route: req.routeOptions.url }, String(answer.body));
  void sendAnswer(reply, answer);
};

const registerRequestMetrics = (fastify: FastifyInstance, requestMetrics: RequestMetrics): void => {
  const METRICS = Symbol('openbid.route-metrics');
  const unmatched = new Map<string, RequestRecorder>();
  fastify.addHook('onRoute', (routeOptions) => {
    const methods = Array.isArray(routeOptions.method) ? routeOptions.method : [routeOptions.method];
    routeOptions.config = { ...routeOptions.config, [METRICS]: new Map(methods.map((m) => [m, requestMetrics.forRoute(routeOptions.url, m)])) };
  });

  fastify.addHook('onResponse', (req, reply, done) => {
    const method = req.method;
    let record = (req.routeOptions.config as { [METRICS]?: Map<string, RequestRecorder> })[METRICS]?.get(method);
    if (record === undefined) {
      record = unmatched.get(method);
      if (record === undefined) unmatched.set(method, (record = requestMetrics.forRoute('unmatched', method)));
    }
    record(reply.statusCode, reply.elapsedTime);
    done();
  });
};
