import { Agent, request } from 'undici';
import { AppError, ErrorCode } from '../../core/app-error.js';
import type { CancelSignal } from '../../core/cancel-signal.js';
import type { BidCacheClient, CacheClient } from '../cache-client.js';
import type { CachedValue } from '../cache-service.js';

export interface RemoteCacheClientOptions {
  /** The remote's `/cache` URL, e.g. `http://prebid-cache:2424/cache`. */
  readonly url: string;
  readonly timeoutMs: number;
  /** Where browsers read cached values back; defaults to `url`. */
  readonly publicUrl?: string;
}

const snippet = (text: string): string => (text.length > 200 ? `${text.slice(0, 197)}...` : text).trim();

/**
 * A remote Prebid-Cache-compatible server, over HTTP with keep-alive (undici). Puts are one
 * `POST {url}`; a value is read with `GET {url}?uuid=`. A refusal (4xx) of the puts rejects with
 * `BAD_REQUEST` carrying the remote's message; any other failure, or an answer that is not the
 * expected JSON with one uuid per put, rejects with `BACKEND_FAILURE` (or `BACKEND_TIMEOUT`).
 */
export const createRemoteCacheClient = (opts: RemoteCacheClientOptions): CacheClient & BidCacheClient & { close(): Promise<void> } => {
  const agent = new Agent({ keepAliveTimeout: 30_000, connections: 64 });

  const call = async (method: 'GET' | 'POST', url: string, body?: string, deadline?: CancelSignal) => {
    const timeout = AbortSignal.timeout(opts.timeoutMs);
    // undici takes an AbortSignal: the caller's deadline aborts one made for this call.
    const cut = deadline === undefined ? undefined : new AbortController();
    const onDeadline = (): void => cut?.abort();
    deadline?.addEventListener('abort', onDeadline);
    if (deadline?.aborted === true) onDeadline();
    try {
      const res = await request(url, {
        method,
        dispatcher: agent,
        headersTimeout: opts.timeoutMs,
        bodyTimeout: opts.timeoutMs,
        signal: cut === undefined ? timeout : AbortSignal.any([timeout, cut.signal]),
        ...(body !== undefined ? { body, headers: { 'content-type': 'application/json' } } : {}),
      });
      return { status: res.statusCode, headers: res.headers, body: Buffer.from(await res.body.arrayBuffer()) };
    } catch (err) {
      const code = (err as { code?: string }).code;
      // The caller's deadline (the auction's tmax) may pass before the client's own time limit.
      const cutByDeadline = deadline?.aborted === true && !timeout.aborted;
      const timedOut = cutByDeadline || (err as Error).name === 'TimeoutError' || code === 'UND_ERR_HEADERS_TIMEOUT' || code === 'UND_ERR_BODY_TIMEOUT';
      const message = cutByDeadline
        ? `the deadline passed before the cache at ${opts.url} answered.`
        : timedOut
          ? `the cache at ${opts.url} did not answer within ${opts.timeoutMs} ms.`
          : `the cache at ${opts.url} cannot be reached.`;
      throw new AppError(timedOut ? ErrorCode.BACKEND_TIMEOUT : ErrorCode.BACKEND_FAILURE, message, { cause: err });
    } finally {
      deadline?.removeEventListener('abort', onDeadline);
    }
  };

  const put = async (puts: Parameters<CacheClient['put']>[0], deadline?: CancelSignal): Promise<string[]> => {
    const res = await call('POST', opts.url, JSON.stringify({ puts }), deadline);
    const text = res.body.toString('utf8');
    if (res.status >= 400 && res.status < 500) throw new AppError(ErrorCode.BAD_REQUEST, `the cache refused the puts (${res.status}): ${snippet(text)}`);
    if (res.status !== 200) throw new AppError(ErrorCode.BACKEND_FAILURE, `the cache at ${opts.url} answered ${res.status}: ${snippet(text)}`);
    let uuids: unknown;
    try {
      uuids = (JSON.parse(text) as { responses?: { uuid?: unknown }[] }).responses?.map((r) => r.uuid);
    } catch {
      uuids = undefined;
    }
    if (!Array.isArray(uuids) || uuids.length !== puts.length || !uuids.every((u) => typeof u === 'string')) {
      throw new AppError(ErrorCode.BACKEND_FAILURE, `the cache at ${opts.url} answered without one uuid per put.`);
    }
    return uuids;
  };

  return {
    url: opts.publicUrl ?? opts.url,
    put: (puts) => put(puts),
    putBatch: (puts, signal) => put(puts, signal),

    async get(uuid) {
      if (uuid === undefined || uuid === '') throw new AppError(ErrorCode.BAD_REQUEST, 'GET /cache: Missing required parameter uuid');
      const res = await call('GET', `${opts.url}${opts.url.includes('?') ? '&' : '?'}uuid=${encodeURIComponent(uuid)}`);
      if (res.status === 404) throw new AppError(ErrorCode.NOT_FOUND, `GET /cache uuid=${uuid}: Key not found`);
      if (res.status !== 200) throw new AppError(ErrorCode.BACKEND_FAILURE, `the cache at ${opts.url} answered ${res.status}: ${snippet(res.body.toString('utf8'))}`);
      const contentType = String(res.headers['content-type'] ?? '');
      const value: CachedValue = { type: contentType.includes('json') ? 'json' : 'xml', body: res.body };
      return value;
    },

    close: () => agent.close(),
  };
};
