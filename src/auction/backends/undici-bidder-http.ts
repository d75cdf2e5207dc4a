import { promisify } from 'node:util';
import { gunzipSync, gzip as gzipCallback, gzipSync } from 'node:zlib';
import type { IncomingHttpHeaders } from 'node:http';
import { Agent, errors } from 'undici';
import type { Dispatcher } from 'undici';
import type { BidderCallFailure, BidderCallResult, BidderHttpClient } from '../bidder-http.js';
import { networkFailureReason } from '../network-failure.js';
import type { CancelSignal } from '../../core/cancel-signal.js';
import { copyToExtend } from '../../core/own-keys.js';
import { BoundedGunzip } from './bounded-gunzip.js';
import type { GunzipOutcome } from './bounded-gunzip.js';
import { Slots } from './slots.js';

export interface UndiciBidderHttpOptions {
  /** Connections kept per bidder origin. */
  readonly connectionsPerHost: number;
}

const gzipAsync = promisify(gzipCallback);

/**
 * Request bodies up to this size are compressed on the event loop, larger ones in zlib's thread
 * pool. A trip to the pool (a stream, a worker thread's wake-up, the callback) costs more CPU than
 * compressing a few kilobytes: 75–150 µs against 30–70 µs for the 0.6–14 KB bodies of 1 to 50
 * imps (`npm run bench -- zlib`; docs/performance.md, "Fifth round"). The loop's gain is being
 * free meanwhile, which matters only for large bodies: 64 KB, about 240 imps, takes ~250 µs.
 */
const SYNC_GZIP_MAX_BYTES = 64 * 1024;
/**
 * A gzip answer is inflated on the event loop up to this size, for the same reason: 12–22 µs
 * against 45–65 µs through the pool for answers of 1 to 20 bids. One that inflates to more is
 * inflated again in the pool, up to the answer size limit, so a gzip bomb never holds the loop
 * longer than this size takes (~90 µs). An answer whose compressed bytes pass this size inflates
 * to about as much or more (gzip adds only a few bytes to what it cannot shrink), so it would go
 * to the pool anyway: it is inflated there as it arrives, and a bomb is refused, its connection
 * dropped, once the bytes read so far inflate past the limit, not after its whole body (a 1 MiB
 * bomb inflating to 1 GiB: after ~64 KB).
 */
const SYNC_GUNZIP_MAX_BYTES = 64 * 1024;

/**
 * Gzip answers being inflated in zlib's thread pool at once, by all calls (the pool has four
 * threads); a call holds a slot while zlib works on its bytes, not while it waits for more. So
 * however many bombs arrive at once, at most this many are growing their output (up to the answer
 * limit each); the others wait, their answers unread. The 50-way bomb flood of
 * test/integration/gzip-bomb-memory.test.ts peaked at 240–270 MiB RSS without it, 205–250 with it;
 * more to the point, without it the output of bombs being inflated grows with the number of calls.
 */
const POOL_INFLATIONS = 4;

/** Distinct call URIs whose origin and path are kept parsed; past it the memo starts over. */
const MAX_PARSED_URIS = 1024;
/**
 * Longer URIs are parsed on every call, never kept: with the entry limit this bounds the memo in
 * bytes (1,024 × 512 characters, each kept about three times: key, origin, path — under 3 MiB).
 */
const MAX_MEMO_URI_LENGTH = 512;

interface Target {
  readonly origin: string;
  readonly path: string;
}

/** The origin and path undici's `request()` would derive from a URI, with its check of the protocol. */
const parseTarget = (uri: string): Target => {
  const url = new URL(uri);
  if (url.protocol !== 'http:' && url.protocol !== 'https:') {
    throw new errors.InvalidArgumentError('Invalid URL protocol: the URL must start with `http:` or `https:`.');
  }
  return { origin: url.origin, path: url.search ? `${url.pathname}${url.search}` : url.pathname };
};

/**
 * One call's handler, on undici's dispatch interface rather than `request()`: the answer is
 * collected into an array of chunks with no response stream, async iterator or per-chunk promise
 * in between (together about a sixth of an auction's CPU). Settles `done` exactly once.
 */
class CallHandler implements Dispatcher.DispatchHandler {
  private controller: Dispatcher.DispatchController | undefined;
  private settled = false;
  private status = 0;
  private headers: IncomingHttpHeaders = {};
  private gzip = false;
  private readonly chunks: Buffer[] = [];
  private size = 0;
  private ended = false;
  /** A gzip answer inflated in the pool, as it arrives or once it has all come (`chunks` then holds what zlib has not been given yet). */
  private pooled = false;
  private inflater: BoundedGunzip | undefined;
  private holdsSlot = false;
  /** Gives back the inflation slot this call holds or waits for. */
  private leaveSlot: (() => void) | undefined;

  constructor(
    private readonly limit: number,
    private readonly inflations: Slots,
    private readonly signal: CancelSignal,
    private readonly done: (result: BidderCallResult) => void,
  ) {
    signal.addEventListener('abort', this.onAbort);
  }

  /** The deadline passed: drop the connection's exchange and report a timeout. */
  private readonly onAbort = (): void => {
    this.settle({ ok: false, failure: { kind: 'timeout' } });
    this.controller?.abort(new errors.RequestAbortedError());
  };

  private settle(result: BidderCallResult): void {
    if (this.settled) return;
    this.settled = true;
    this.signal.removeEventListener('abort', this.onAbort);
    this.inflater?.destroy();
    this.leaveSlot?.();
    this.done(result);
  }

  /** Settled before the abort, which reports an error of its own synchronously. */
  private tooLarge(): void {
    this.settle({ ok: false, failure: { kind: 'too-large', limitBytes: this.limit } });
    this.controller?.abort(new errors.ResponseExceededMaxSizeError());
  }

  onRequestStart(controller: Dispatcher.DispatchController): void {
    this.controller = controller;
    // Aborted between the dispatch and the connection: undici would send the request regardless.
    if (this.settled) controller.abort(new errors.RequestAbortedError());
  }

  onResponseStart(_controller: Dispatcher.DispatchController, statusCode: number, headers: IncomingHttpHeaders): void {
    if (statusCode < 200 || this.settled) return; // 1xx informational: the answer follows
    this.status = statusCode;
    this.headers = headers;
    this.gzip = String(headers['content-encoding'] ?? '').toLowerCase() === 'gzip';
    // A declared size over the limit is refused before a byte of the body is read.
    if (Number(headers['content-length'] ?? NaN) > this.limit) this.tooLarge();
  }

  onResponseData(_controller: Dispatcher.DispatchController, chunk: Buffer): void {
    if (this.settled) return;
    this.size += chunk.length;
    if (this.size > this.limit) return this.tooLarge();
    this.chunks.push(chunk);
    if (this.pooled) this.inflateQueued();
    else if (this.gzip && this.size > SYNC_GUNZIP_MAX_BYTES) this.inflateInPool();
  }

  onResponseEnd(): void {
    if (this.settled) return;
    this.ended = true;
    if (this.pooled) return this.inflateQueued();
    const raw = this.chunks.length === 1 ? this.chunks[0]! : Buffer.concat(this.chunks, this.size);
    if (!this.gzip) return this.settle(this.answer(raw.toString('utf8')));
    const syncLimit = Math.min(this.limit, SYNC_GUNZIP_MAX_BYTES);
    let inflated: Buffer | undefined;
    try {
      inflated = gunzipSync(raw, { maxOutputLength: syncLimit });
    } catch (err) {
      // Only an answer that may still fit the limit goes on to the pool.
      if (!isTooLarge(err) || syncLimit === this.limit) return this.settle(this.inflateFailure(err as Error));
    }
    if (inflated !== undefined) return this.settle(this.answer(inflated.toString('utf8')));
    this.chunks.length = 0;
    this.chunks.push(raw);
    this.inflateInPool();
  }

  /** From now on the answer is inflated in zlib's thread pool, what has come and what follows. */
  private inflateInPool(): void {
    this.pooled = true;
    this.inflateQueued();
  }

  /**
   * Hands the bytes not yet inflated to zlib while this call holds one of the client's inflation
   * slots, else waits for one; meanwhile the answer is not read further (the bidder's bytes wait
   * in the socket), so a waiting call holds no more than what it had read.
   */
  private inflateQueued(): void {
    if (this.holdsSlot) return this.writeQueued();
    if (this.leaveSlot !== undefined) return; // waiting: the slot's start writes them
    this.leaveSlot = this.inflations.take(this.onSlot);
    if (!this.holdsSlot && !this.ended) this.controller?.pause();
  }

  private readonly onSlot = (): void => {
    this.holdsSlot = true;
    this.writeQueued();
    if (this.controller?.paused === true) this.controller.resume();
  };

  private writeQueued(): void {
    // Made with the first slot: its output buffer is not allocated while the call waits.
    const inflater = (this.inflater ??= new BoundedGunzip(this.limit, this.onInflated, this.onIdle));
    for (const chunk of this.chunks) inflater.write(chunk);
    this.chunks.length = 0;
    if (this.ended) inflater.end();
  }

  /** All that came is inflated and more is to come: the slot is given back until it does (a slow answer holds none). */
  private readonly onIdle = (): void => {
    this.holdsSlot = false;
    const leave = this.leaveSlot;
    this.leaveSlot = undefined;
    leave?.();
  };

  private readonly onInflated = (outcome: GunzipOutcome): void => {
    if (outcome.kind === 'inflated') return this.settle(this.answer(outcome.body.toString('utf8')));
    // A bomb: the rest of its body is not read.
    if (outcome.kind === 'too-large') return this.tooLarge();
    this.settle(failed(outcome.error));
    this.controller?.abort(new errors.RequestAbortedError());
  };

  private inflateFailure(err: Error): BidderCallResult {
    return isTooLarge(err) ? { ok: false, failure: { kind: 'too-large', limitBytes: this.limit } } : failed(err);
  }

  onResponseError(_controller: Dispatcher.DispatchController, err: Error): void {
    this.settle(this.signal.aborted ? { ok: false, failure: { kind: 'timeout' } } : failed(err));
  }

  private answer(body: string): BidderCallResult {
    return { ok: true, response: { status: this.status, headers: this.headers, body } };
  }
}

/** zlib's error for an output over `maxOutputLength`. */
const isTooLarge = (err: unknown): boolean => (err as { code?: unknown }).code === 'ERR_BUFFER_TOO_LARGE';

const failed = (err: Error): BidderCallResult => {
  const failure: BidderCallFailure = { kind: 'network', message: networkFailureReason(err) };
  return { ok: false, failure };
};

/**
 * Bidder calls over undici: one dispatcher for every bidder (keep-alive, a connection limit per
 * origin), the deadline as a `CancelSignal`, and the size limit enforced while reading (and on the
 * inflated size of a gzip answer, as it inflates), so an oversized answer costs no more than the
 * limit; at most four gzip answers grow their output in the thread pool at once, whatever the
 * number of calls.
 */
export const createUndiciBidderHttp = (opts: UndiciBidderHttpOptions): BidderHttpClient => {
  const agent = new Agent({ connections: opts.connectionsPerHost, keepAliveTimeout: 30_000, pipelining: 1 });
  const inflations = new Slots(POOL_INFLATIONS);
  // A bidder's calls mostly share one URI: parsing it once per URI rather than per call.
  const targets = new Map<string, Target>();
  const targetOf = (uri: string): Target => {
    if (uri.length > MAX_MEMO_URI_LENGTH) return parseTarget(uri);
    let target = targets.get(uri);
    if (target === undefined) {
      target = parseTarget(uri);
      // Adapters that put per-request values in the query would grow it forever: bounded.
      if (targets.size >= MAX_PARSED_URIS) targets.clear();
      targets.set(uri, target);
    }
    return target;
  };

  return {
    async call(req, { signal, maxResponseBytes, gzipBody }): Promise<BidderCallResult> {
      try {
        if (signal.aborted) return { ok: false, failure: { kind: 'timeout' } };
        const { origin, path } = targetOf(req.uri);
        const headers: Record<string, string> = copyToExtend(req.headers);
        headers['accept-encoding'] = 'gzip';
        let payload: string | Buffer | undefined = req.body;
        if (gzipBody === true && payload !== undefined) {
          payload = Buffer.byteLength(payload) <= SYNC_GZIP_MAX_BYTES ? gzipSync(payload) : await gzipAsync(payload);
          for (const name of Object.keys(headers)) if (name.toLowerCase() === 'content-encoding') delete headers[name];
          headers['content-encoding'] = 'gzip';
          if (signal.aborted) return { ok: false, failure: { kind: 'timeout' } };
        }
        return await new Promise<BidderCallResult>((resolve) => {
          agent.dispatch({ origin, path, method: req.method, headers, body: payload ?? null }, new CallHandler(maxResponseBytes, inflations, signal, resolve));
        });
      } catch (err) {
        return signal.aborted ? { ok: false, failure: { kind: 'timeout' } } : failed(err as Error);
      }
    },
    close: () => agent.close(),
  };
};
