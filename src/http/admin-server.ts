import { createServer } from 'node:http';
import type { IncomingMessage, ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { ServerRatesInfo } from '../auction/server-rates.js';
import type { Logger } from '../core/logger.js';
import type { Metrics } from '../metrics/metrics.js';
import type { Answer } from './answer.js';
import { currencyRatesAnswer, metricsAnswer, versionAnswer } from './routes/admin.js';

export interface AdminServerOptions {
  /** The registry `/metrics` renders; absent (`metrics.enabled: false`): no `/metrics`. */
  readonly metrics?: Metrics;
  /** The server's currency rates now (`ServerRates.info`). */
  readonly currencyRates: () => ServerRatesInfo | undefined;
  readonly version: string;
  readonly revision: string;
  readonly keepAliveTimeoutMs: number;
  readonly headersTimeoutMs: number;
  readonly requestTimeoutMs: number;
  readonly logger: Logger;
}

/**
 * The admin listener (`server.admin_port`): operators' routes kept off the public port.
 *
 * Contract: serves exactly `GET` (and `HEAD`) of `/metrics`, `/currency/rates` and `/version`,
 * any query ignored; another path is a plain-text 404, another method a 405 naming `GET, HEAD`.
 * `listen` resolves with the listener's URL once bound, or rejects with node's error (its
 * `code`, e.g. `EADDRINUSE`, kept). `close` stops accepting, closes idle connections, and
 * resolves once every connection has ended; idempotent.
 */
export interface AdminServer {
  listen(host: string, port: number): Promise<string>;
  close(): Promise<void>;
}

const text = (status: number, body: string): Answer => ({ status, contentType: 'text/plain; charset=utf-8', body });
const NOT_FOUND = text(404, 'not found: the admin listener serves /metrics, /currency/rates and /version');

/** A plain node:http server: three small routes need none of Fastify's or the lanes' machinery. */
export const createAdminServer = (opts: AdminServerOptions): AdminServer => {
  const routes = new Map<string, () => Answer | Promise<Answer>>([
    ['/currency/rates', () => currencyRatesAnswer(opts.currencyRates())],
    ['/version', () => versionAnswer(opts.version, opts.revision)],
  ]);
  const metrics = opts.metrics;
  if (metrics !== undefined) routes.set('/metrics', () => metricsAnswer(metrics));

  const handle = async (req: IncomingMessage, res: ServerResponse): Promise<void> => {
    const path = (req.url ?? '/').split('?', 1)[0] ?? '/';
    const route = routes.get(path);
    let answer: Answer;
    if (route === undefined) answer = NOT_FOUND;
    else if (req.method !== 'GET' && req.method !== 'HEAD') {
      res.setHeader('allow', 'GET, HEAD');
      answer = text(405, 'method not allowed');
    } else {
      try {
        answer = await route();
      } catch (err) {
        opts.logger.error({ err, path }, 'admin route failed');
        answer = text(500, 'internal error');
      }
    }
    const body = answer.body ?? '';
    res.writeHead(answer.status, {
      'cache-control': 'no-cache',
      'content-type': answer.contentType ?? 'text/plain; charset=utf-8',
      'content-length': typeof body === 'string' ? Buffer.byteLength(body) : body.length,
    });
    res.end(req.method === 'HEAD' ? undefined : body);
  };

  const server = createServer((req, res) => void handle(req, res));
  // Properties, not createServer options (which refuse a headersTimeout above a nonzero
  // requestTimeout), as the public server sets them.
  server.keepAliveTimeout = opts.keepAliveTimeoutMs;
  server.headersTimeout = opts.headersTimeoutMs;
  server.requestTimeout = opts.requestTimeoutMs;
  let closing: Promise<void> | undefined;
  return {
    listen: (host, port) =>
      new Promise((resolve, reject) => {
        server.once('error', reject);
        server.listen(port, host, () => {
          server.off('error', reject);
          const { address, family, port: bound } = server.address() as AddressInfo;
          resolve(`http://${family === 'IPv6' ? `[${address}]` : address}:${bound}`);
        });
      }),
    close: () =>
      (closing ??= new Promise<void>((resolve) => {
        if (!server.listening) return resolve();
        server.close(() => resolve());
        server.closeIdleConnections();
      })),
  };
};
