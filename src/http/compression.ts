import { promisify } from 'node:util';
import { constants, gzip as gzipCallback, gzipSync } from 'node:zlib';
import type { MaybePromise } from '../core/maybe-promise.js';
import type { Answer, AnswerRequest } from './answer.js';

/**
 * Gzip for the answers of the routes that can be large (`/cookie_sync`, `/openrtb2/auction`,
 * `/openrtb2/amp`, `/getuids`), when the client accepts it (`server.compression`,
 * docs/configuration.md). Applied to a route's handler, so every path that serves the route
 * (the socket lane, the node lane, Fastify) sends the same bytes.
 */

/** `server.compression`: answers at least `minBytes` long are gzipped for a client that accepts gzip. */
export interface CompressionSettings {
  readonly minBytes: number;
}

/** A route handler: the request, with a body or without, to its answer. */
type Handler<R extends AnswerRequest> = (req: R) => MaybePromise<Answer>;

/**
 * Answers up to this size are compressed on the event loop, larger ones in libuv's thread pool:
 * the pool's trip costs more CPU than the compression of a small body (docs/performance.md,
 * "Compression in the thread pool cost more than the compression"), and a large answer (a
 * `/cookie_sync` of a megabyte takes ~10 ms) must not hold the loop.
 */
const SYNC_GZIP_MAX_BYTES = 64 * 1024;

/**
 * zlib's fastest level: a JSON answer of ids, URLs and creatives shrinks nearly as much as at the
 * default level (6) for about half the CPU (docs/performance.md, "Compressed answers").
 */
const GZIP_OPTIONS = { level: constants.Z_BEST_SPEED } as const;
const gzipInPool = promisify(gzipCallback) as (input: Buffer, options: typeof GZIP_OPTIONS) => Promise<Buffer>;

/** A qvalue (RFC 9110 12.4.2): 0 to 1, at most three decimals. */
const QVALUE = /^(?:0(?:\.\d{0,3})?|1(?:\.0{0,3})?)$/;

/** The weight of one `Accept-Encoding` member's parameters (`;q=0.5`): 1 without a `q`, 0 for a malformed one. */
const weightOf = (params: string): number => {
  for (const param of params.split(';')) {
    const p = param.trim();
    if (p.length < 2 || (p.charCodeAt(0) | 0x20) !== 0x71 || p.charCodeAt(1) !== 0x3d) continue; // `q=` or `Q=`
    const value = p.slice(2);
    return QVALUE.test(value) ? Number(value) : 0;
  }
  return 1;
};

/**
 * Whether an `Accept-Encoding` value accepts gzip (RFC 9110 12.5.3): `gzip` (or `x-gzip`) listed
 * with a weight above 0, or not listed and `*` with a weight above 0. Names are matched ignoring
 * case; a malformed weight counts as 0. No header: no gzip.
 */
export const acceptsGzip = (header: string | undefined): boolean => {
  if (header === undefined) return false;
  let gzip = -1;
  let any = -1;
  for (const member of header.split(',')) {
    const semi = member.indexOf(';');
    const coding = (semi === -1 ? member : member.slice(0, semi)).trim().toLowerCase();
    if (coding === 'gzip' || coding === 'x-gzip') gzip = Math.max(gzip, semi === -1 ? 1 : weightOf(member.slice(semi + 1)));
    else if (coding === '*') any = Math.max(any, semi === -1 ? 1 : weightOf(member.slice(semi + 1)));
  }
  return gzip > 0 || (gzip === -1 && any > 0);
};

/** The answer's body as bytes: a text body as UTF-8, a byte string as its bytes. */
const bodyBytes = (answer: Answer): Buffer | undefined => {
  const body = answer.body;
  if (body === undefined) return undefined;
  return typeof body === 'string' ? Buffer.from(body, answer.bodyEncoding ?? 'utf8') : body;
};

/** The answer with `gzipped` as its body, said so in `Content-Encoding`. */
const gzippedAnswer = (answer: Answer, gzipped: Buffer): Answer => ({
  status: answer.status,
  ...(answer.contentType !== undefined ? { contentType: answer.contentType } : {}),
  headers: answer.headers === undefined ? ['content-encoding', 'gzip'] : [...answer.headers, 'content-encoding', 'gzip'],
  body: gzipped,
  bodyEncoding: undefined,
});

/**
 * The answer gzipped when its body is at least `minBytes` long; else the answer itself. On the
 * event loop up to {@link SYNC_GZIP_MAX_BYTES}, in the thread pool above (then a promise). Never
 * rejects: should zlib fail, the answer goes uncompressed.
 */
export const gzipAnswer = (answer: Answer, minBytes: number): MaybePromise<Answer> => {
  const raw = bodyBytes(answer);
  if (raw === undefined || raw.length < minBytes) return answer;
  if (raw.length <= SYNC_GZIP_MAX_BYTES) {
    try {
      return gzippedAnswer(answer, gzipSync(raw, GZIP_OPTIONS));
    } catch {
      return answer;
    }
  }
  return gzipInPool(raw, GZIP_OPTIONS).then(
    (gzipped) => gzippedAnswer(answer, gzipped),
    () => answer,
  );
};

/**
 * `handler` with its answers gzipped for a client whose `Accept-Encoding` accepts gzip, when they
 * are at least `settings.minBytes` long (errors thrown by the handler stay the lanes' and
 * Fastify's plain text); `handler` itself when `settings` is undefined (compression off). A
 * request that does not accept gzip costs one header lookup: no promise, no copy.
 */
export const compressing = <R extends AnswerRequest>(handler: Handler<R>, settings: CompressionSettings | undefined): Handler<R> => {
  if (settings === undefined) return handler;
  const { minBytes } = settings;
  return (req) => {
    if (!acceptsGzip(req.headers['accept-encoding'])) return handler(req);
    const answer = handler(req);
    return answer instanceof Promise ? answer.then((a) => gzipAnswer(a, minBytes)) : gzipAnswer(answer, minBytes);
  };
};
