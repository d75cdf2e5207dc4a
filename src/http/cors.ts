import type { FastifyInstance } from 'fastify';

const ALLOWED_METHODS = 'GET, POST, HEAD, OPTIONS';
/** Browsers may cache a preflight answer this long, sparing Prebid.js a round trip per auction. */
const PREFLIGHT_MAX_AGE_SECONDS = '600';

/**
 * Headers of every answer: each one is per request (cache values, errors, auctions), so never
 * stored by a browser or proxy and never sniffed into another type; `Vary` because the CORS
 * headers depend on the Origin.
 */
export const ANSWER_HEADERS: readonly (readonly [string, string])[] = [
  ['vary', 'Origin'],
  ['cache-control', 'no-cache'],
  ['x-content-type-options', 'nosniff'],
];

/**
 * CORS for a request with an Origin: it is echoed in this header, with
 * `Access-Control-Allow-Credentials: true` (a wildcard is not allowed with credentials, which
 * Prebid.js sends).
 */
export const ALLOW_ORIGIN = 'access-control-allow-origin';
export const ALLOW_CREDENTIALS = ['access-control-allow-credentials', 'true'] as const;

/**
 * CORS for browser callers (Prebid.js, AMP pages) on every Fastify route, and 204 answers to
 * preflights. The lanes write the same headers themselves (`fast-lane.ts`, `answer-head.ts`).
 *
 * Hand-written rather than @fastify/cors: on the hot path it is two header writes, measured at a
 * fifth of the throughput of a bare server with the plugin's per-request option resolution.
 */
export const registerCors = (server: FastifyInstance): void => {
  server.addHook('onRequest', (req, reply, done) => {
    const origin = req.headers.origin;
    if (origin !== undefined) void reply.header(ALLOW_ORIGIN, origin).header(...ALLOW_CREDENTIALS);
    for (const [name, value] of ANSWER_HEADERS) void reply.header(name, value);
    done();
  });

  server.options('*', (req, reply) => {
    const requestedHeaders = req.headers['access-control-request-headers'];
    void reply.header('vary', 'Origin, Access-Control-Request-Method, Access-Control-Request-Headers');
    if (req.headers.origin !== undefined && req.headers['access-control-request-method'] !== undefined) {
      void reply.header('access-control-allow-methods', ALLOWED_METHODS).header('access-control-max-age', PREFLIGHT_MAX_AGE_SECONDS);
      if (requestedHeaders !== undefined) void reply.header('access-control-allow-headers', requestedHeaders);
    }
    void reply.code(204).send();
  });
};
