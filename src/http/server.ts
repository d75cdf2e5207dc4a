import { createServer } from 'node:http';
import Fastify, { LogController } from 'fastify';
import type { FastifyBaseLogger, FastifyError, FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import type { Logger } from '../core/logger.js';
import type { MaybePromise } from '../core/maybe-promise.js';
import type { Metrics } from '../metrics/metrics.js';
import { errorAnswer, loggableCause, TEXT_PLAIN } from './answer.js';
import type { Answer, AnswerHandler, AnswerRequest, BodyAnswerHandler, RouteHeaders } from './answer.js';
import { createClientAddress, trustedProxyCheck } from './client-address.js';
import { compressing } from './compression.js';
import type { CompressionSettings } from './compression.js';
import { registerCors } from './cors.js';
import { acceptAnyBodyAsText } from './raw-body.js';
import { createNodeLane } from './node-lane.js';
import type { NodeLane } from './node-lane.js';
import { frameworkClientErrorText } from './error-status.js';
import { createLaneRoutes, DEADLINE_CHECK_INTERVAL_MS } from './lane-core.js';
import { putSocketLaneInFront } from './socket-lane.js';
import type { SocketLane } from './socket-lane.js';
import { createRequestMetrics } from './request-metrics.js';
import type { RequestMetrics, RequestRecorder } from './request-metrics.js';

/**
 * Which lanes serve the hottest routes ahead of Fastify (`server.lanes`): `all` the socket lane
 * and the node lane, `node` the node lane only, `off` neither (Fastify serves every request).
 */
export type LanesSetting = 'all' | 'node' | 'off';

export interface HttpServerOptions {
  readonly logger: Logger;
  readonly metrics: Metrics;
  /** Access logs are Fastify's: with them on, every request goes through Fastify (lanes off). */
  readonly accessLog: boolean;
  /** Requests slower than this are logged as warnings; 0 disables. */
  readonly slowRequestMs: number;
  readonly keepAliveTimeoutMs: number;
  /** node:http's `headersTimeout`, held on every path (0: no limit). */
  readonly headersTimeoutMs: number;
  /** node:http's `requestTimeout`, held on every path (0: no limit). */
  readonly requestTimeoutMs: number;
  readonly lanes: LanesSetting;
  /** `server.trusted_proxies`: whose `X-Forwarded-For` names the client (`client-address.ts`). */
  readonly trustedProxies: readonly string[];
  /** `server.compression`: gzip for the routes that ask for it ({@link HttpServer.compressed}); undefined: off. */
  readonly compression?: CompressionSettings;
}

/** The Fastify instance every route plugs into, and the two lanes in front of it. */
export interface HttpServer {
  readonly fastify: FastifyInstance;
  /**
   * Registers a GET route written as an {@link AnswerHandler}: with Fastify (HEAD, trailing
   * slash, access logs, `inject`) and with the lanes, which serve plain GETs without Fastify.
   * Every answer, errors included, carries the `headers` worked out from the request, if given.
   */
  answerGet(path: string, handler: AnswerHandler, headers?: RouteHeaders): void;
  /**
   * Registers a POST route written as a {@link BodyAnswerHandler}, for bodies of any Content-Type
   * read as text, up to `bodyLimit` bytes (413 beyond): with Fastify, and with the lanes,
   * which read plainly framed JSON and text bodies themselves.
   */
  answerPost(path: string, bodyLimit: number, handler: BodyAnswerHandler): void;
  /**
   * `handler` with its answers gzipped for clients that accept gzip, past `server.compression`'s
   * size (`compression.ts`); `handler` itself with compression off. For routes whose answers can
   * be large; every path that serves the route then sends the same bytes.
   */
  compressed<R extends AnswerRequest>(handler: (req: R) => MaybePromise<Answer>): (req: R) => MaybePromise<Answer>;
}

/**
 * The HTTP server: Fastify with error handling (plain-text bodies, statuses from
 * `error-status.ts`), CORS for browser callers, request metrics and slow-request logs; and in
 * front of it, on the same node:http server, the socket lane (every connection first) and the
 * node lane (on the connections node:http holds) for the hottest routes (docs/http-lanes.md).
 */
export const createHttpServer = (opts: HttpServerOptions): HttpServer => {
  const requestMetrics = createRequestMetrics(opts);
  const routes = createLaneRoutes({ logger: opts.logger, metrics: requestMetrics });
  const isTrusted = opts.trustedProxies.length > 0 ? trustedProxyCheck(opts.trustedProxies) : undefined;
  const clientAddress = createClientAddress(isTrusted);
  // With access logs on, every request goes through Fastify, which writes them.
  const lanes: LanesSetting = opts.accessLog ? 'off' : opts.lanes;
  const nodeLane = createNodeLane({ logger: opts.logger, routes, enabled: lanes !== 'off', clientAddress });
  let socketLane: SocketLane | undefined;
  const fastify = Fastify({
    loggerInstance: opts.logger as unknown as FastifyBaseLogger,
    logController: new LogController({ disableRequestLogging: !opts.accessLog }),
    requestIdHeader: false,
    // A bad percent-encoding in the path: Fastify's default answer is JSON echoing the URL.
    frameworkErrors: (err, _req, reply) => void sendAnswer(reply, { status: 400, contentType: TEXT_PLAIN, body: frameworkClientErrorText(err.code, 400) }),
    keepAliveTimeout: opts.keepAliveTimeoutMs,
    return503OnClosing: true,
    forceCloseConnections: 'idle',
    routerOptions: { ignoreTrailingSlash: true },
    // Fastify's `req.ip` (routes written for Fastify alone) reads X-Forwarded-For by the same rule.
    ...(isTrusted === undefined ? {} : { trustProxy: (address: string) => isTrusted(address) }),
    serverFactory: (handler, options) => {
      const server = serverWithLane(nodeLane, handler, options, opts);
      if (lanes === 'all') socketLane = putSocketLaneInFront(server, { logger: opts.logger, routes, keepAliveTimeoutMs: opts.keepAliveTimeoutMs, clientAddress });
      return server;
    },
    // A pino child per request (for its reqId) costs a third of a bare server's throughput; only
    // access logs use it, so without them every request shares the root logger.
    ...(opts.accessLog ? {} : { childLoggerFactory: (logger: FastifyBaseLogger) => logger }),
  });
  // Once closing has begun, Fastify answers every new request 503 (Connection: close).
  fastify.addHook('preClose', (done) => {
    nodeLane.close();
    socketLane?.close();
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
    answerGet: (path, handler, headers) => {
      fastify.get(path, async (req, reply) => {
        const request: AnswerRequest = { query: req.query as Record<string, unknown>, headers: req.headers, ip: clientAddress(req.socket.remoteAddress, req.headers['x-forwarded-for']) };
        // Set before the handler runs, so that an error answer (the error handler's) carries them too.
        setHeaders(reply, headers?.(request));
        return sendAnswer(reply, await handler(request));
      });
      routes.get(path, handler, headers);
    },
    answerPost: (path, bodyLimit, handler) => {
      void fastify.register((scope, _o, done) => {
        acceptAnyBodyAsText(scope);
        scope.post(path, { bodyLimit }, async (req, reply) =>
          sendAnswer(
            reply,
            await handler({
              query: req.query as Record<string, unknown>,
              headers: req.headers,
              ip: clientAddress(req.socket.remoteAddress, req.headers['x-forwarded-for']),
              body: typeof req.body === 'string' ? req.body : '',
            }),
          ),
        );
        done();
      });
      routes.post(path, bodyLimit, handler);
    },
    compressed: (handler) => compressing(handler, opts.compression),
  };
};

/**
 * The node:http server Fastify would create, with the node lane asked first, and node:http's
 * deadlines: `headersTimeout` and `requestTimeout` checked every
 * {@link DEADLINE_CHECK_INTERVAL_MS} (node's default checks every 30 s, so a deadline could be
 * missed by up to 30 s), the same as the socket lane checks its own.
 */
const serverWithLane = (
  lane: NodeLane,
  handler: Parameters<typeof createServer>[1] & object,
  options: Record<string, unknown>,
  opts: Pick<HttpServerOptions, 'headersTimeoutMs' | 'requestTimeoutMs'>,
) => {
  const server = createServer({ connectionsCheckingInterval: DEADLINE_CHECK_INTERVAL_MS }, (req, res) => {
    if (!lane.serve(req, res)) handler(req, res);
  });
  // The settings Fastify applies to a server it creates itself.
  server.keepAliveTimeout = options.keepAliveTimeout as number;
  server.setTimeout(options.connectionTimeout as number);
  // Set as properties, not createServer options, which refuse a headersTimeout above a nonzero
  // requestTimeout: then the request deadline simply comes first, on every path alike.
  server.headersTimeout = opts.headersTimeoutMs;
  server.requestTimeout = opts.requestTimeoutMs;
  return server;
};

/**
 * Writes an answer through Fastify exactly as the lanes write it. A string body goes as
 * bytes: given a string, Fastify would append `; charset=utf-8` to a JSON content type, and
 * `GET /cache` answers a JSON value as plain `application/json`, as Prebid Cache does.
 */
export const sendAnswer = (reply: FastifyReply, answer: Answer): FastifyReply => {
  void reply.code(answer.status);
  setHeaders(reply, answer.headers);
  if (answer.contentType !== undefined) void reply.type(answer.contentType);
  const body = answer.body;
  return reply.send(typeof body === 'string' ? Buffer.from(body, answer.bodyEncoding ?? 'utf8') : body);
};

/** Sets flat `name, value...` headers on a reply. */
const setHeaders = (reply: FastifyReply, headers: readonly string[] | undefined): void => {
  if (headers !== undefined) for (let i = 0; i + 1 < headers.length; i += 2) void reply.header(headers[i] as string, headers[i + 1]);
};

/** Writes an error as `text/plain`; 5xx are logged, 4xx are the caller's business. */
const sendError = (err: FastifyError, req: FastifyRequest, reply: FastifyReply, logger: Logger): void => {
  let answer: Answer;
  if (err.code === 'FST_ERR_CTP_BODY_TOO_LARGE') {
    answer = { status: 413, contentType: TEXT_PLAIN, body: `Request body is larger than the limit of ${String(req.routeOptions.bodyLimit)} bytes.` };
  } else if (typeof err.statusCode === 'number' && err.statusCode >= 400 && err.statusCode < 500) {
    // Fastify's own client errors (malformed headers, unsupported media type...), in fixed words.
    answer = { status: err.statusCode, contentType: TEXT_PLAIN, body: frameworkClientErrorText(err.code, err.statusCode) };
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
