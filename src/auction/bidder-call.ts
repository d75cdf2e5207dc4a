import { BidderErrorCode } from '../bidders/adapter.js';
import type { BidderError, BidderResponse, FledgeAuctionConfig, RequestContext, RequestData, TypedBid } from '../bidders/adapter.js';
import type { Clock } from '../core/clock.js';
import { copyToExtend } from '../core/own-keys.js';
import type { Imp } from '../openrtb/types.js';
import type { AuctionBid } from './auction-bid.js';
import type { BidderOutcome } from './auction-metrics.js';
import type { BidderHttpClient } from './bidder-http.js';
import { invalidBidReason, invalidPricedBidReason } from './bid-validation.js';
import type { BidderShare } from './split.js';
import type { CancelSignal } from '../core/cancel-signal.js';

/** One HTTP call as `ext.debug.httpcalls` shows it. */
export interface DebugHttpCall {
  readonly uri: string;
  readonly requestbody?: string;
  readonly requestheaders: Readonly<Record<string, string>>;
  readonly responsebody?: string;
  readonly status?: number;
}

/** What one bidder brought to the auction. */
export interface BidderResult {
  readonly code: string;
  readonly baseCode: string;
  readonly bids: AuctionBid[];
  readonly errors: BidderError[];
  readonly warnings: BidderError[];
  readonly outcome: BidderOutcome;
  readonly responseTimeMs: number;
  readonly httpCalls: DebugHttpCall[];
  /** Protected Audience configs its answers carried, whatever their imps allow (the response filters). */
  readonly fledgeAuctionConfigs: FledgeAuctionConfig[];
}

export interface BidderCallOptions {
  readonly http: BidderHttpClient;
  readonly clock: Clock;
  /** Epoch ms by which every call of this bidder must have answered. */
  readonly deadline: number;
  /** Aborts at `deadline`: one timer for every bidder of the auction, cleared by its owner. */
  readonly signal: CancelSignal;
  readonly maxResponseBytes: number;
  /**
   * Bids read from this bidder in one auction, all its calls together; past it the rest of an
   * answer is dropped before any check or conversion, with an error (code 3) naming the limit.
   */
  readonly maxBids: number;
  /** The auction's currency. */
  readonly currency: string;
  readonly convertCurrency: RequestContext['convertCurrency'];
  /** `ext.prebid.bidadjustmentfactors[<bidder>]`, 1 when unset. */
  readonly adjustment: number;
  readonly entryPoint: RequestContext['entryPoint'];
  readonly globalPrivacyControl: boolean;
  readonly debug: boolean;
}

const unknownError = (message: string): BidderError => ({ code: BidderErrorCode.UNKNOWN, message });

/**
 * Runs one bidder: its adapter's requests, the calls in parallel within the deadline, its answers
 * into bids, and the exchange's checks on each bid (validity, currency, adjustment, and the
 * price that makes). Never
 * rejects: every failure is an error entry of the result, so one bidder can never fail an auction.
 */
export const callBidder = async (share: BidderShare, opts: BidderCallOptions): Promise<BidderResult> => {
  const started = opts.clock.now();
  const { bidder, request } = share;
  const errors: BidderError[] = [];
  const warnings: BidderError[] = [];
  const httpCalls: DebugHttpCall[] = [];
  const fledgeAuctionConfigs: FledgeAuctionConfig[] = [];
  const context: RequestContext = {
    endpoint: bidder.endpoint,
    bidderCode: bidder.code,
    convertCurrency: opts.convertCurrency,
    globalPrivacyControl: opts.globalPrivacyControl,
    entryPoint: opts.entryPoint,
    host: bidder.host,
  };
  const done = (outcome: BidderOutcome, bids: AuctionBid[] = []): BidderResult => ({
    code: bidder.code,
    baseCode: bidder.baseCode,
    bids,
    errors,
    warnings,
    outcome,
    responseTimeMs: opts.clock.now() - started,
    httpCalls,
    fledgeAuctionConfigs,
  });

  let calls: RequestData[];
  try {
    const made = bidder.module.adapter.makeRequests(request, context);
    calls = made.requests;
    errors.push(...made.errors);
  } catch {
    // An adapter's exception is a bug of its own: its text is not the caller's business.
    errors.push(unknownError(`the ${bidder.code} adapter failed to build its request`));
    return done('error');
  }
  if (calls.length === 0) return done(errors.length > 0 ? 'bad-input' : 'no-bid');

  const answers: BidderResponse[] = [];
  let timedOut = false;
  let answered = false;
  let bidsRead = 0;
  const timeLeft = opts.deadline - opts.clock.now() > 0 && !opts.signal.aborted;
  const gzipBody = bidder.module.info.endpointCompression === 'gzip';
  await Promise.all(
    calls.map(async (call) => {
      const result = !timeLeft ? ({ ok: false, failure: { kind: 'timeout' } } as const) : await opts.http.call(call, { signal: opts.signal, maxResponseBytes: opts.maxResponseBytes, gzipBody });
      if (opts.debug) {
        httpCalls.push({
          uri: call.uri,
          // As Prebid Server: the body as the adapter wrote it, the headers as sent.
          ...(call.body !== undefined ? { requestbody: call.body } : {}),
          requestheaders: gzipBody && call.body !== undefined ? withGzipEncoding(call.headers) : call.headers,
          ...(result.ok ? { responsebody: result.response.body, status: result.response.status } : {}),
        });
      }
      if (!result.ok) {
        const f = result.failure;
        if (f.kind === 'timeout') {
          timedOut = true;
          errors.push({ code: BidderErrorCode.TIMEOUT, message: `${bidder.code} did not answer within the auction's time budget` });
        } else if (f.kind === 'too-large') {
          errors.push({ code: BidderErrorCode.BAD_SERVER_RESPONSE, message: `${bidder.code} answered more than ${f.limitBytes} bytes` });
        } else {
          errors.push({ code: BidderErrorCode.BAD_SERVER_RESPONSE, message: `${bidder.code} could not be reached: ${f.message}` });
        }
        return;
      }
      const { status } = result.response;
      if (status === 204) return;
      if (status !== 200) {
        errors.push({ code: BidderErrorCode.BAD_SERVER_RESPONSE, message: `Unexpected status code: ${status}. Run with request.debug = 1 for more info` });
        return;
      }
      answered = true;
      try {
        const read = bidder.module.adapter.makeBids(request, call, result.response);
        errors.push(...read.errors);
        const answer = read.response;
        if (answer === undefined) return;
        answers.push(withinBidLimit(answer, opts.maxBids - bidsRead, bidder.code, opts.maxBids, errors));
        bidsRead += answer.bids.length;
        if (answer.fledgeAuctionConfigs !== undefined) fledgeAuctionConfigs.push(...answer.fledgeAuctionConfigs);
      } catch {
        errors.push(unknownError(`the ${bidder.code} adapter failed to read its answer`));
      }
    }),
  );

  const impsById = new Map<string, Imp>(request.imp.map((imp) => [imp.id, imp]));
  const bids: AuctionBid[] = [];
  for (const answer of answers) {
    for (const b of answer.bids) {
      const reason = invalidBidReason(b, impsById);
      if (reason !== undefined) {
        warnings.push({ code: BidderErrorCode.BAD_SERVER_RESPONSE, message: `${reason}; bid dropped` });
        continue;
      }
      const priced = priceIn(b, answer.currency, opts, bidder.code);
      if (typeof priced === 'string') {
        errors.push(unknownError(priced));
        continue;
      }
      const unusable = invalidPricedBidReason(priced.bid, opts.currency);
      if (unusable !== undefined) {
        warnings.push({ code: BidderErrorCode.BAD_SERVER_RESPONSE, message: `${unusable}; bid dropped` });
        continue;
      }
      bids.push(priced);
    }
  }
  const outcome: BidderOutcome = bids.length > 0 ? 'bid' : timedOut ? 'timeout' : errors.length > 0 && !answered ? 'error' : 'no-bid';
  return done(outcome, bids);
};

/**
 * The answer with at most `room` bids, its first ones (`room` is what the bidder's limit leaves
 * after its earlier answers). Cut before its bids are checked, converted or ranked: a bidder
 * answering 10,000 bids made an auction take up to ~4× its tmax. The cut is an error naming the limit.
 */
const withinBidLimit = (answer: BidderResponse, room: number, code: string, limit: number, errors: BidderError[]): BidderResponse => {
  if (answer.bids.length <= room) return answer;
  errors.push({
    code: BidderErrorCode.BAD_SERVER_RESPONSE,
    message: `${code} answered more bids than this server reads from one bidder in an auction (${limit}); ${answer.bids.length - Math.max(0, room)} dropped`,
  });
  return { ...answer, bids: answer.bids.slice(0, Math.max(0, room)) };
};

/** The headers of a call whose body went out gzip-compressed, as the HTTP client sent them. */
const withGzipEncoding = (headers: Readonly<Record<string, string>>): Record<string, string> => ({
  ...Object.fromEntries(Object.entries(headers).filter(([name]) => name.toLowerCase() !== 'content-encoding')),
  'content-encoding': 'gzip',
});

/**
 * The bid priced in the auction's currency and adjusted, or why it cannot be. Its `bid` is the
 * exchange's own copy, the only one: the response takes it as it is.
 */
const priceIn = (b: TypedBid, currency: string, opts: BidderCallOptions, code: string): AuctionBid | string => {
  const from = currency.toUpperCase();
  let price = b.bid.price;
  if (from !== opts.currency) {
    try {
      price = opts.convertCurrency(price, from, opts.currency);
    } catch (err) {
      return `Bid "${b.bid.id}": ${(err as Error).message}`;
    }
  }
  price *= opts.adjustment;
  // Not `{ ...b.bid, price }`: in Node 20's V8 a spread copy that later gains a property (the
  // response's `ext`) gets a hidden class of its own, so every bid took the slow store and the
  // response's JSON.stringify met 60 shapes at 60 bids (docs/performance.md, "Per imp and per bid").
  const bid = copyToExtend(b.bid);
  bid.price = price;
  return {
    bidder: b.seat ?? code,
    bid,
    type: b.type,
    originalPrice: b.bid.price,
    originalCurrency: from,
    ...(b.dealPriority !== undefined ? { dealPriority: b.dealPriority } : {}),
    ...(b.video !== undefined ? { video: b.video } : {}),
  };
};
