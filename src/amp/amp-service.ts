import type { AuctionOutcome } from '../auction/exchange.js';
import type { AuctionPreparation, CallerInfo } from '../auction/prepare-auction.js';
import { AppError, ErrorCode, isAppError } from '../core/app-error.js';
import type { Clock } from '../core/clock.js';
import type { IdGenerator } from '../core/ids.js';
import { isObject } from '../core/json-object.js';
import type { BidRequest } from '../openrtb/types.js';
import type { AmpQuery } from './amp-query.js';
import { ampTmaxLimit, buildAmpRequest } from './amp-request.js';

/** The answer of `GET /openrtb2/amp`. */
export interface AmpResponse {
  readonly targeting: Record<string, string>;
  /** Bidder code → its errors; present only when there are some. */
  readonly errors?: Record<string, { code: number; message: string }[]>;
  readonly ext?: { warnings?: unknown; debug?: unknown };
}

export interface AmpServiceOptions {
  readonly preparation: AuctionPreparation;
  readonly clock: Clock;
  readonly ids: IdGenerator;
  /** The stored request of a tag as JSON text (scoped to the account when given); `undefined` when unknown. */
  readonly loadStoredRequest: (tagId: string, accountId: string | undefined) => Promise<string | undefined>;
  /** The AMP default timeout (1000 ms): `tmax` never exceeds it. */
  readonly defaultTimeoutMs: number;
}

const bad = (message: string): AppError => new AppError(ErrorCode.BAD_REQUEST, message);

/**
 * The AMP use case: `tag_id` → stored request → the page's query → the auction's preparation
 * step → the exchange → targeting. Throws `AppError(BAD_REQUEST)` with the interface's messages
 * for a missing or bad stored request, `UNAUTHORIZED` for a refused account, `INTERNAL`
 * ("Critical error.") when the auction itself fails; a bidder's failure is an entry of `errors`,
 * never a failed answer.
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
    } catch {
      throw new AppError(ErrorCode.BACKEND_FAILURE, `the stored request of tag_id '${tagId}' is not valid JSON`);
    }
    if (!isObject(stored)) throw new AppError(ErrorCode.BACKEND_FAILURE, `the stored request of tag_id '${tagId}' is not a JSON object`);
    const merged = await opts.preparation.mergeStored(stored);
    if (!Array.isArray(merged.imp) || merged.imp.length === 0) throw bad(`Data for tag_id='${tagId}' does not define the required imp array.`);
    if (merged.imp.length > 1) throw bad(`Data for tag_id '${tagId}' includes ${merged.imp.length} imp elements. Only one is allowed.`);
    if (merged.app !== undefined) throw bad('The app object must not exist in AMP stored requests.');
    return merged as unknown as BidRequest;
  };

  return {
    async run(query, queryWarnings, caller) {
      const call = {
        entryPoint: 'amp',
        caller,
        startedAt: opts.clock.now(),
        tmaxLimitMs: ampTmaxLimit(query, opts.defaultTimeoutMs),
        ...(query.tagId !== undefined ? { tagId: query.tagId } : {}),
      } as const;
      try {
        const outcome = await opts.preparation.hold(call, async () => {
          const built = buildAmpRequest(await loadStored(query.tagId, query.account), query, () => opts.ids.uuid());
          return { request: built.request as unknown as Record<string, unknown>, warnings: [...queryWarnings, ...built.warnings], storedMerged: true };
        });
        return ampResponseOf(outcome, query.debug);
      } catch (err) {
        if (isAppError(err) && err.code !== ErrorCode.INTERNAL) throw err;
        throw new AppError(ErrorCode.INTERNAL, 'Critical error.', { cause: err });
      }
    },
  };
};

/**
 * The AMP answer of an auction: the targeting of every bid that carries some, merged (an AMP
 * request has one imp), in the order the response lists them; bidder errors; warnings, and debug
 * data when asked, under `ext`.
 */
export const ampResponseOf = (outcome: AuctionOutcome, debug: boolean): AmpResponse => {
  // No prototype: the keys carry the request's targeting prefix.
  const targeting = Object.create(null) as Record<string, string>;
  for (const result of outcome.bidders) {
    for (const bid of result.bids) {
      const keys = outcome.targeting.get(bid);
      if (keys !== undefined) Object.assign(targeting, keys);
    }
  }
  const ext = (outcome.response.ext ?? {}) as { errors?: AmpResponse['errors']; warnings?: unknown; debug?: unknown };
  const out: { targeting: Record<string, string>; errors?: AmpResponse['errors']; ext?: AmpResponse['ext'] } = { targeting };
  if (ext.errors !== undefined) out.errors = ext.errors;
  if (ext.warnings !== undefined || (debug && ext.debug !== undefined)) {
    out.ext = { ...(ext.warnings !== undefined ? { warnings: ext.warnings } : {}), ...(debug && ext.debug !== undefined ? { debug: ext.debug } : {}) };
  }
  return out;
};
