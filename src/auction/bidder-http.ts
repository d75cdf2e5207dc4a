import type { RequestData, ResponseData } from '../bidders/adapter.js';
import type { CancelSignal } from '../core/cancel-signal.js';

/** Why a bidder call brought no answer the adapter can read. */
export type BidderCallFailure =
  | { readonly kind: 'timeout' }
  | { readonly kind: 'too-large'; readonly limitBytes: number }
  /** `message`: what failed, in openbid's words (`network-failure.ts`), naming no host, address or URL. */
  | { readonly kind: 'network'; readonly message: string };

export type BidderCallResult = { readonly ok: true; readonly response: ResponseData } | { readonly ok: false; readonly failure: BidderCallFailure };

/**
 * Port: the HTTP client the exchange calls bidders through.
 *
 * Contract: `call` never rejects: every outcome is a {@link BidderCallResult}. It gives up when
 * `signal` aborts (reporting a timeout) and refuses an answer whose body, decompressed, exceeds
 * `maxResponseBytes` without reading more of it. Any status is an answer (`ok: true`); the exchange
 * judges it. Every call asks for a gzip answer (`Accept-Encoding: gzip`), as Prebid Server's Go
 * HTTP client does for every bidder. With `gzipBody`, a request body is sent gzip-compressed with `Content-Encoding: gzip`
 * (replacing any such header of the adapter's); a call without a body is sent as it is. Safe for
 * concurrent calls; connections are pooled and kept alive per host.
 */
export interface BidderHttpClient {
  call(request: RequestData, opts: { readonly signal: CancelSignal; readonly maxResponseBytes: number; readonly gzipBody?: boolean }): Promise<BidderCallResult>;
  close(): Promise<void>;
}
