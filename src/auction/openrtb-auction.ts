import { AppError, ErrorCode, isAppError } from '../core/app-error.js';
import type { Clock } from '../core/clock.js';
import type { MaybePromise } from '../core/maybe-promise.js';
import { validateBidRequest } from '../openrtb/validate-request.js';
import type { BidRequest, BidResponse } from '../openrtb/types.js';
import type { AuctionMetrics } from './auction-metrics.js';
import type { AuctionAccount, Exchange } from './exchange.js';

/** What the HTTP layer knows of the caller that OpenRTB may lack. */
export interface CallerInfo {
  readonly ip?: string;
  readonly userAgent?: string;
  /** `Sec-GPC: 1`. */
  readonly globalPrivacyControl: boolean;
}

/** Stored data merged into a request, and what could not be found (warnings). */
export type StoredDataResolver = (request: Record<string, unknown>) => Promise<{ request: Record<string, unknown>; warnings: string[] }>;

export interface OpenRtbAuctionOptions {
  readonly exchange: Exchange;
  readonly clock: Clock;
  /** Counts the auctions refused before they ran (the exchange counts those it holds). */
  readonly metrics: AuctionMetrics;
  /** The account of a request; rejects with `UNAUTHORIZED` for an unknown one when accounts are required. */
  readonly resolveAccount: (id: string) => MaybePromise<AuctionAccount>;
  /** Merges stored requests and imps (`ext.prebid.storedrequest.id`); identity when there are none. */
  readonly resolveStored: StoredDataResolver;
  /** Parses the body; throws `AppError(BAD_REQUEST)` for input that is not JSON or too deeply nested. */
  readonly parseJson: (text: string) => unknown;
  readonly defaultTimeoutMs: number;
  readonly maxTimeoutMs: number;
}

/**
 * `POST /openrtb2/auction` as a use case: body → stored data merged → validated → account →
 * `tmax` → the exchange. Throws `AppError(BAD_REQUEST)` naming every problem of a bad request,
 * `UNAUTHORIZED` for a refused account; bidders' failures are part of the response.
 */
export interface OpenRtbAuction {
  run(body: string, caller: CallerInfo): Promise<BidResponse>;
}

const isObject = (v: unknown): v is Record<string, unknown> => typeof v === 'object' && v !== null && !Array.isArray(v);

/** The effective `tmax`: the request's (the default when it sets none), capped by the server's maximum. */
export const effectiveTmax = (requested: number | undefined, defaultMs: number, maxMs: number): number =>
  Math.min(requested !== undefined && requested > 0 ? requested : defaultMs, maxMs);

/** The publisher's account id of a request: `site.publisher.id`, `app.publisher.id` or `dooh.publisher.id`. */
export const accountIdOf = (request: BidRequest): string => {
  for (const ctx of [request.site, request.app, request.dooh]) {
    const id = (ctx as { publisher?: { id?: unknown } } | undefined)?.publisher?.id;
    if (typeof id === 'string' && id !== '') return id;
  }
  return '';
};

/** Fills `device.ua` and `device.ip` from the HTTP request when the request lacks them, as Prebid Server does. */
const withCallerDevice = (request: BidRequest, caller: CallerInfo): BidRequest => {
  const device = request.device ?? {};
  const ua = device.ua === undefined && caller.userAgent !== undefined ? { ua: caller.userAgent } : {};
  const hasIp = device.ip !== undefined || device.ipv6 !== undefined;
  const ip = !hasIp && caller.ip !== undefined ? (caller.ip.includes(':') ? { ipv6: caller.ip } : { ip: caller.ip }) : {};
  if (Object.keys(ua).length === 0 && Object.keys(ip).length === 0) return request;
  return { ...request, device: { ...device, ...ua, ...ip } };
};

export const createOpenRtbAuction = (opts: OpenRtbAuctionOptions): OpenRtbAuction => {
  const prepare = async (body: string, caller: CallerInfo): Promise<{ request: BidRequest; warnings: string[] }> => {
    if (body.trim() === '') throw new AppError(ErrorCode.BAD_REQUEST, 'Invalid request format: request body is empty');
    const parsed = opts.parseJson(body);
    if (!isObject(parsed)) throw new AppError(ErrorCode.BAD_REQUEST, 'Invalid request format: request must be a JSON object');
    const stored = await opts.resolveStored(parsed);
    const problems = validateBidRequest(stored.request);
    if (problems.length > 0) throw new AppError(ErrorCode.BAD_REQUEST, `Invalid request format: ${problems.join('\n')}`);
    return { request: withCallerDevice(stored.request as unknown as BidRequest, caller), warnings: stored.warnings };
  };

  return {
    async run(body, caller) {
      const startedAt = opts.clock.now();
      let prepared: { request: BidRequest; warnings: string[] };
      let account: AuctionAccount;
      try {
        prepared = await prepare(body, caller);
        account = await opts.resolveAccount(accountIdOf(prepared.request));
      } catch (err) {
        opts.metrics.auction('auction', isAppError(err) && err.code !== ErrorCode.INTERNAL ? 'rejected' : 'error', (opts.clock.now() - startedAt) / 1000);
        throw err;
      }
      const { request, warnings } = prepared;
      const tmax = effectiveTmax(request.tmax, opts.defaultTimeoutMs, opts.maxTimeoutMs);
      const outcome = await opts.exchange.holdAuction({
        request,
        account,
        tmax,
        deadline: startedAt + tmax,
        startedAt,
        entryPoint: 'auction',
        globalPrivacyControl: caller.globalPrivacyControl,
        warnings,
      });
      return outcome.response;
    },
  };
};
