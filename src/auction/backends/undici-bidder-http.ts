import { promisify } from 'node:util';
import { gunzip, gzip as gzipCallback } from 'node:zlib';
import { Agent, request } from 'undici';
import type { BidderCallResult, BidderHttpClient } from '../bidder-http.js';

export interface UndiciBidderHttpOptions {
  /** Connections kept per bidder origin. */
  readonly connectionsPerHost: number;
}

class TooLarge extends Error {}

const gunzipAsync = promisify(gunzip);
const gzipAsync = promisify(gzipCallback);

/**
 * Bidder calls over undici: one dispatcher for every bidder (keep-alive, a connection limit per
 * origin), the deadline as an `AbortSignal`, and the size limit enforced while reading (and on the
 * inflated size of a gzip answer), so an oversized answer costs no more than the limit.
 */
export const createUndiciBidderHttp = (opts: UndiciBidderHttpOptions): BidderHttpClient => {
  const agent = new Agent({ connections: opts.connectionsPerHost, keepAliveTimeout: 30_000, pipelining: 1 });

  /** Reads at most `limit` bytes of the body; gzip is inflated to at most `limit` bytes too. */
  const readBody = async (body: AsyncIterable<Buffer>, gzip: boolean, limit: number): Promise<string> => {
    const chunks: Buffer[] = [];
    let size = 0;
    for await (const chunk of body) {
      size += chunk.length;
      if (size > limit) throw new TooLarge();
      chunks.push(chunk);
    }
    const raw = Buffer.concat(chunks, size);
    if (!gzip) return raw.toString('utf8');
    try {
      return (await gunzipAsync(raw, { maxOutputLength: limit })).toString('utf8');
    } catch (err) {
      if ((err as { code?: string }).code === 'ERR_BUFFER_TOO_LARGE') throw new TooLarge();
      throw err;
    }
  };

  return {
    async call(req, { signal, maxResponseBytes, acceptGzip, gzipBody }): Promise<BidderCallResult> {
      try {
        const headers: Record<string, string> = { ...req.headers };
        if (acceptGzip) headers['accept-encoding'] = 'gzip';
        let payload: string | Buffer | undefined = req.body;
        if (gzipBody === true && payload !== undefined) {
          // Compressed off the event loop (zlib's thread pool): bodies of many imps are large.
          payload = await gzipAsync(payload);
          for (const name of Object.keys(headers)) if (name.toLowerCase() === 'content-encoding') delete headers[name];
          headers['content-encoding'] = 'gzip';
        }
        const res = await request(req.uri, {
          method: req.method,
          dispatcher: agent,
          headers,
          signal,
          ...(payload !== undefined ? { body: payload } : {}),
        });
        // The deadline may abort a body that is already given up (too large): nothing to report then.
        res.body.on('error', () => undefined);
        const declared = Number(res.headers['content-length'] ?? NaN);
        const gzip = String(res.headers['content-encoding'] ?? '').toLowerCase() === 'gzip';
        if (declared > maxResponseBytes) {
          res.body.destroy();
          return { ok: false, failure: { kind: 'too-large', limitBytes: maxResponseBytes } };
        }
        const body = await readBody(res.body, gzip, maxResponseBytes);
        return { ok: true, response: { status: res.statusCode, headers: res.headers, body } };
      } catch (err) {
        if (err instanceof TooLarge) return { ok: false, failure: { kind: 'too-large', limitBytes: maxResponseBytes } };
        if (signal.aborted) return { ok: false, failure: { kind: 'timeout' } };
        const e = err as Error & { code?: string };
        return { ok: false, failure: { kind: 'network', message: e.code ? `${e.code}: ${e.message}` : e.message } };
      }
    },
    close: () => agent.close(),
  };
};
