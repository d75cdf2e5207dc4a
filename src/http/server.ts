import Fastify, { LogController } from 'fastify';
import type { FastifyBaseLogger, FastifyError, FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { isAppError } from '../core/app-error.js';
import type { Logger } from '../core/logger.js';
import type { BoundCounter, BoundHistogram, Metrics } from '../metrics/metrics.js';
import { registerCors } from './cors.js';
import { STATUS_BY_CODE } from './error-status.js';

export interface HttpServerOptions {
  readonly logger: Logger;
  readonly metrics: Metrics;
  readonly accessLog: boolean;
  /** Requests slower than this are logged as warnings; 0 disables. */
  readonly slowRequestMs: number;
  readonly keepAliveTimeoutMs: number;
}

/**
 * The Fastify instance every route plugs into: error handling (plain-text bodies, statuses from
 * `error-status.ts`), CORS for browser callers, request metrics and slow-request logs.
 */
export const createHttpServer = (opts: HttpServerOptions): FastifyInstance => {
  const server = Fastify({
    loggerInstance: opts.logger as unknown as FastifyBaseLogger,
    logController: new LogController({ disableRequestLogging: !opts.accessLog }),
    requestIdHeader: false,
    keepAliveTimeout: opts.keepAliveTimeoutMs,
    return503OnClosing: true,
    forceCloseConnections: 'idle',
    routerOptions: { ignoreTrailingSlash: true },
    // A pino child per request (for its reqId) costs a third of a bare server's throughput; only
    // access logs use it, so without them every request shares the root logger.
    ...(opts.accessLog ? {} : { childLoggerFactory: (logger: FastifyBaseLogger) => logger }),
  });

  registerCors(server);

  registerRequestMetrics(server, opts);
  server.setErrorHandler((err: FastifyError, req, reply) => sendError(err, req, reply, opts.logger));
  server.setNotFoundHandler((req, reply) => {
    void reply.code(404).type('text/plain; charset=utf-8').send(`Not found: ${req.method} ${req.url.split('?')[0] ?? ''}`);
  });
  return server;
};

/** Writes an error as `text/plain`; 5xx are logged, 4xx are the caller's business. */
const sendError = (err: FastifyError, req: FastifyRequest, reply: FastifyReply, logger: Logger): void => {
  let status: number;
  let message: string;
  if (isAppError(err)) {
    status = STATUS_BY_CODE[err.code];
    message = err.message;
  } else if (err.code === 'FST_ERR_CTP_BODY_TOO_LARGE') {
    status = 413;
    message = `Request body is larger than the limit of ${String(req.routeOptions.bodyLimit)} bytes.`;
  } else if (typeof err.statusCode === 'number' && err.statusCode >= 400 && err.statusCode < 500) {
    status = err.statusCode;
    message = err.message;
  } else {
    status = 500;
    message = 'Internal server error.';
  }
  if (status >= 500) {
    logger.error({ err: isAppError(err) && err.cause !== undefined ? err.cause : err, method: req.method, route: req.routeOptions.url }, message);
  }
  void reply.code(status).type('text/plain; charset=utf-8').send(message);
};

const registerRequestMetrics = (server: FastifyInstance, opts: HttpServerOptions): void => {
  const requests = opts.metrics.counter({
    name: 'openbid_http_requests_total',
    help: 'HTTP requests by route, method and status.',
    labelNames: ['route', 'method', 'status'],
  });
  const durations = opts.metrics.histogram({
    name: 'openbid_http_request_duration_seconds',
    help: 'HTTP request durations by route and method.',
    labelNames: ['route', 'method'],
  });
  // Instruments are bound once per route and method (the route pattern, not the URL, so series
  // stay bounded); a request then costs a lookup by numeric status, no label strings.
  interface RouteMetrics {
    readonly timer: BoundHistogram;
    readonly byStatus: Map<number, BoundCounter>;
    readonly route: string;
    readonly method: string;
  }
  const bind = (route: string, method: string): RouteMetrics => ({ timer: durations.with({ route, method }), byStatus: new Map(), route, method });
  const unmatched = new Map<string, RouteMetrics>();
  const METRICS = Symbol('openbid.route-metrics');
  server.addHook('onRoute', (routeOptions) => {
    const methods = Array.isArray(routeOptions.method) ? routeOptions.method : [routeOptions.method];
    routeOptions.config = { ...routeOptions.config, [METRICS]: new Map(methods.map((m) => [m, bind(routeOptions.url, m)])) };
  });

  server.addHook('onResponse', (req, reply, done) => {
    const method = req.method;
    const perMethod = (req.routeOptions.config as { [METRICS]?: Map<string, RouteMetrics> })[METRICS];
    let m = perMethod?.get(method);
    if (m === undefined) {
      m = unmatched.get(method);
      if (m === undefined) unmatched.set(method, (m = bind('unmatched', method)));
    }
    const status = reply.statusCode;
    let counter = m.byStatus.get(status);
    if (counter === undefined) m.byStatus.set(status, (counter = requests.with({ route: m.route, method, status: String(status) })));
    const ms = reply.elapsedTime;
    counter.inc();
    m.timer.observe(ms / 1000);
    const route = m.route;
    if (opts.slowRequestMs > 0 && ms > opts.slowRequestMs) {
      opts.logger.warn({ route, method, status, ms: Math.round(ms) }, 'slow request');
    }
    done();
  });
};
