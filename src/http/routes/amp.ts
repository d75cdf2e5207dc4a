import type { AmpService } from '../../amp/amp-service.js';
import { readAmpQuery } from '../../amp/amp-query.js';
import { jsonAnswer } from '../answer.js';
import type { AnswerRequest } from '../answer.js';
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

const EXPOSE_SOURCE_ORIGIN = ['access-control-expose-headers', 'AMP-Access-Control-Allow-Source-Origin'] as const;

/**
 * AMP's CORS for credentialed requests: the page's origin is echoed in
 * `AMP-Access-Control-Allow-Source-Origin` (from `__amp_source_origin`, else the Origin) and
 * exposed to the AMP runtime, on every answer, errors included. A value that is not an origin
 * (a path, bytes a header cannot carry) is not echoed: echoing it would let a page's query
 * string write into the answer's headers. A serialized origin is ASCII.
 */
const ampHeaders = ({ query, headers }: AnswerRequest): readonly string[] => {
  const sourceOrigin = asOrigin(firstParam(query.__amp_source_origin)) ?? asOrigin(headers.origin);
  return sourceOrigin === undefined ? EXPOSE_SOURCE_ORIGIN : ['amp-access-control-allow-source-origin', sourceOrigin, ...EXPOSE_SOURCE_ORIGIN];
};

/** `GET /openrtb2/amp`: a lane route (`answerGet`), with AMP's CORS headers on every answer, gzipped for a client that accepts it (`server.compression`). */
export const ampRoutes = (server: HttpServer, opts: { amp: AmpService }): void => {
  server.answerGet(
    '/openrtb2/amp',
    server.compressed(({ query: q, headers, ip }: AnswerRequest) => {
      const { query, warnings } = readAmpQuery((name) => {
        const v = firstParam(q[name]);
        return v === undefined || v === '' ? undefined : v;
      });
      return opts.amp
        .run(query, warnings, {
          ip,
          ...(headers['user-agent'] !== undefined ? { userAgent: headers['user-agent'] } : {}),
          globalPrivacyControl: headers['sec-gpc'] === '1',
          ...(headers.cookie !== undefined ? { cookieHeader: headers.cookie } : {}),
        })
        .then(jsonAnswer);
    }),
    ampHeaders,
  );
};
