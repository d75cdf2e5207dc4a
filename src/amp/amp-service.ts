import type { AuctionMetrics } from '../auction/auction-metrics.js';
import type { AuctionAccount, Exchange } from '../auction/exchange.js';
import { accountIdOf } from '../auction/openrtb-auction.js';
import type { CallerInfo } from '../auction/openrtb-auction.js';
import { AppError, ErrorCode, isAppError } from '../core/app-error.js';
import type { Clock } from '../core/clock.js';
import type { IdGenerator } from '../core/ids.js';
import type { MaybePromise } from '../core/maybe-promise.js';
import { validateBidRequest } from '../openrtb/validate-request.js';
import type { BidRequest, BidResponse } from '../openrtb/types.js';
import type { AmpQuery } from './amp-query.js';
import { ampTmax, buildAmpRequest } from './amp-request.js';

/** The answer of `GET /openrtb2/amp`. */
export interface AmpResponse {
  readonly targeting: Record<string, string>;
  /** Bidder code → its errors; present only when there are some. */
  readonly errors?: Record<string, { code: number; message: string }[]>;
  readonly ext?: { warnings?: unknown; debug?: unknown };
}

export interface AmpServiceOptions {
  readonly exchange: Exchange;
  readonly clock: Clock;
  readonly ids: IdGenerator;
  readonly metrics: AuctionMetrics;
  /** The stored request of a tag as JSON text (scoped to the account when given); `undefined` when unknown. */
  readonly loadStoredRequest: (tagId: string, accountId: string | undefined) => Promise<string | undefined>;
  /** Stored imps referenced by the stored request, merged as for `/openrtb2/auction`. */
  readonly resolveStored: (request: Record<string, unknown>) => Promise<{ request: Record<string, unknown>; warnings: string[] }>;
  readonly resolveAccount: (id: string) => MaybePromise<AuctionAccount>;
  /** The AMP default timeout (1000 ms) and the server's cap. */
  readonly defaultTimeoutMs: number;
  readonly maxTimeoutMs: number;
}

const bad = (message: string): AppError => new AppError(ErrorCode.BAD_REQUEST, message);
const isObject = (v: unknown): v is Record<string, unknown> => typeof v === 'object' && v !== null && !Array.isArray(v);

/**
 * The AMP use case: `tag_id` → stored request → the page's query → account → the exchange →
 * targeting. Throws `AppError(BAD_REQUEST)` with the interface's messages for a missing or bad
 * stored request, `UNAUTHORIZED` for a refused account, `INTERNAL` ("Critical error.") when the
 * auction itself fails; a bidder's failure is an entry of `errors`, never a failed answer.
 */
export interface AmpService {
  run(query: AmpQuery, queryWarnings: readonly string[], caller: CallerInfo): Promise<AmpResponse>;
}

export const createAmpService = (opts: AmpServiceOptions): AmpService => {
  const loadStored = async (tagId: string | undefined, account: string | undefined): Promise<BidRequest> => {
    if (tagId === undefined) throw bad('AMP requests require an AMP tag_id');
    const text = await opts.loadStoredRequest(tagId, account);
    if (text === undefined) throw bad(`No AMP config found for tag_id '${tagId}'.`);
    let stored: unknown;
    try {
      stored = JSON.parse(text);
    } catch (err) {
      throw new AppError(ErrorCode.BACKEND_FAILURE, `the stored request of tag_id '${tagId}' is not valid JSON: ${(err as Error).message}`);
    }
    if (!isObject(stored)) throw new AppError(ErrorCode.BACKEND_FAILURE, `the stored request of tag_id '${tagId}' is not a JSON object`);
    const merged = (await opts.resolveStored(stored)).request;
    if (!Array.isArray(merged.imp) || merged.imp.length === 0) throw bad(`Data for tag_id='${tagId}' does not define the required imp array.`);
    if (merged.imp.length > 1) throw bad(`Data for tag_id '${tagId}' includes ${merged.imp.length} imp elements. Only one is allowed.`);
    if (merged.app !== undefined) throw bad('The app object must not exist in AMP stored requests.');
    return merged as unknown as BidRequest;
  };

  return {
    async run(query, queryWarnings, caller) {
      const startedAt = opts.clock.now();
      try {
        const stored = await loadStored(query.tagId, query.account);
        const built = buildAmpRequest(stored, query, () => opts.ids.uuid());
        const device = built.request.device ?? {};
        const request: BidRequest = {
          ...built.request,
          device: {
            ...device,
            ...(device.ua === undefined && caller.userAgent !== undefined ? { ua: caller.userAgent } : {}),
            ...(device.ip === undefined && device.ipv6 === undefined && caller.ip !== undefined ? (caller.ip.includes(':') ? { ipv6: caller.ip } : { ip: caller.ip }) : {}),
          },
        };
        const problems = validateBidRequest(request);
        if (problems.length > 0) throw bad(`Invalid request format: ${problems.join('\n')}`);
        const account = await opts.resolveAccount(accountIdOf(request));
        const tmax = ampTmax(query, stored.tmax, opts.defaultTimeoutMs, opts.maxTimeoutMs);
        const outcome = await opts.exchange.holdAuction({
          request: { ...request, tmax },
          account,
          tmax,
          deadline: startedAt + tmax,
          startedAt,
          entryPoint: 'amp',
          globalPrivacyControl: caller.globalPrivacyControl,
          warnings: [...queryWarnings, ...built.warnings],
          ...(query.tagId !== undefined ? { tagId: query.tagId } : {}),
        });
        return ampResponseOf(outcome.response, query.debug);
      } catch (err) {
        const rejected = isAppError(err) && err.code !== ErrorCode.INTERNAL;
        opts.metrics.auction('amp', rejected ? 'rejected' : 'error', (opts.clock.now() - startedAt) / 1000);
        if (rejected) throw err;
        throw new AppError(ErrorCode.INTERNAL, 'Critical error.', { cause: err });
      }
    },
  };
};

/**
 * The AMP answer of a bid response: every bid's targeting merged (an AMP request has one imp),
 * `hb_creative_loadtype` for the winner as Prebid Server writes it, bidder errors, and warnings
 * and debug data under `ext`.
 */
export const ampResponseOf = (response: BidResponse, debug: boolean): AmpResponse => {
  const targeting: Record<string, string> = {};
  for (const seat of response.seatbid ?? []) {
    for (const bid of seat.bid) {
      const t = (bid.ext as { prebid?: { targeting?: Record<string, unknown> } } | undefined)?.prebid?.targeting;
      for (const [k, v] of Object.entries(t ?? {})) if (typeof v === 'string') targeting[k] = v;
    }
  }
  if (Object.keys(targeting).some((k) => k.endsWith('_bidder') && !k.includes('_bidder_'))) targeting.hb_creative_loadtype = 'html';
  const ext = (response.ext ?? {}) as { errors?: AmpResponse['errors']; warnings?: unknown; debug?: unknown };
  const out: { targeting: Record<string, string>; errors?: AmpResponse['errors']; ext?: AmpResponse['ext'] } = { targeting };
  if (ext.errors !== undefined) out.errors = ext.errors;
  if (ext.warnings !== undefined || (debug && ext.debug !== undefined)) {
    out.ext = { ...(ext.warnings !== undefined ? { warnings: ext.warnings } : {}), ...(debug && ext.debug !== undefined ? { debug: ext.debug } : {}) };
  }
  return out;
};
