import type { AmpService } from '../../amp/amp-service.js';
import { readAmpQuery } from '../../amp/amp-query.js';
import { firstParam } from '../raw-body.js';
import type { HttpServer } from '../server.js';

/** `value` when it is a serialized origin (`scheme://host[:port]`), else undefined. */
const asOrigin = (value: string | undefined): string | undefined => {
  if (value === undefined) return undefined;
  let origin: string;
  try {
    origin = new URL(value).origin;
  } catch {
    return undefined;
  }
  return origin === value && origin !== 'null' ? origin : undefined;
};

/**
 * `GET /openrtb2/amp`. AMP's CORS for credentialed requests: the page's origin is echoed in
 * `AMP-Access-Control-Allow-Source-Origin` (from `__amp_source_origin`, else the Origin) and
 * exposed to the AMP runtime; they are set before anything can fail, so errors carry them too.
 * A value that is not an origin (a path, bytes a header cannot carry) is not echoed: echoing it
 * would let a page's query string write into the answer's headers.
 */
export const ampRoutes = (server: HttpServer, opts: { amp: AmpService }): void => {
  server.fastify.get('/openrtb2/amp', async (req, reply) => {
    const q = req.query as Record<string, unknown>;
    const sourceOrigin = asOrigin(firstParam(q.__amp_source_origin)) ?? asOrigin(req.headers.origin);
    if (sourceOrigin !== undefined) void reply.header('amp-access-control-allow-source-origin', sourceOrigin);
    void reply.header('access-control-expose-headers', 'AMP-Access-Control-Allow-Source-Origin');
    const { query, warnings } = readAmpQuery((name) => {
      const v = firstParam(q[name]);
      return v === undefined || v === '' ? undefined : v;
    });
    const answer = await opts.amp.run(query, warnings, {
      ip: req.ip,
      ...(req.headers['user-agent'] !== undefined ? { userAgent: req.headers['user-agent'] } : {}),
      globalPrivacyControl: req.headers['sec-gpc'] === '1',
      ...(req.headers.cookie !== undefined ? { cookieHeader: req.headers.cookie } : {}),
    });
    void reply.code(200).type('application/json');
    return JSON.stringify(answer);
  });
};
