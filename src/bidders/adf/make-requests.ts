import type { BidRequest, Imp, Open } from '../../openrtb/types.js';
import { badInput, BidderErrorCode } from '../adapter.js';
import type { BidderError, RequestContext, RequestData } from '../adapter.js';
import { isAbsent, isObject } from '../json-guards.js';
import { copyToExtend } from '../../core/own-keys.js';

/** The bidder params as far as the adapter reads them, once their types are known to fit. */
export interface AdfParams {
  /** `mid` as text (Go keeps it as a `json.Number`); empty when absent. */
  readonly mid: string;
  /** `priceType`; empty when absent. */
  readonly priceType: string;
}

// A JSON number literal: what Go's json.Number accepts from a quoted string.
const NUMBER_LITERAL = /^-?(0|[1-9]\d*)(\.\d+)?([eE][+-]?\d+)?$/;

/**
 * Reads `imp.ext.bidder` as Go decodes it into Adform's params: `mid` a number or a string holding
 * one, `inv` an integer, `mname` and `priceType` strings; a type that does not fit fails the imp.
 * `null` params read as none. The params schema has normally refused bad ones already.
 */
export const readParams = (bidder: unknown): AdfParams | { error: string } => {
  if (bidder === null) return { mid: '', priceType: '' };
  if (bidder === undefined) return { error: 'ext.bidder is missing' };
  if (!isObject(bidder)) return { error: 'ext.bidder is not an object' };
  const { mid, inv, mname, priceType } = bidder;
  let midText = '';
  if (typeof mid === 'number') midText = String(mid);
  else if (typeof mid === 'string') {
    // Go's json.Number takes an empty string too, as no number.
    if (mid !== '' && !NUMBER_LITERAL.test(mid)) return { error: 'ext.bidder.mid is not a number' };
    midText = mid;
  } else if (!isAbsent(mid)) return { error: 'ext.bidder.mid is neither a number nor a string' };
  if (!isAbsent(inv) && !Number.isInteger(inv)) return { error: 'ext.bidder.inv is not an integer' };
  if (!isAbsent(mname) && typeof mname !== 'string') return { error: 'ext.bidder.mname is not a string' };
  if (!isAbsent(priceType) && typeof priceType !== 'string') return { error: 'ext.bidder.priceType is not a string' };
  return { mid: midText, priceType: typeof priceType === 'string' ? priceType : '' };
};

/** The imp as Adform gets it: unchanged but for `tagid`, which is `mid` (none when it is empty). */
const prepareImp = (imp: Imp): { imp: Imp; params: AdfParams } | { error: string } => {
  if (!isObject(imp.ext)) return { error: `imp ${imp.id}: ext is not an object` };
  if (!isAbsent(imp.ext.prebid) && !isObject(imp.ext.prebid)) return { error: `imp ${imp.id}: ext.prebid is not an object` };
  const params = readParams(imp.ext.bidder);
  if ('error' in params) return { error: `imp ${imp.id}: ${params.error}` };
  const out: Imp = copyToExtend(imp);
  // Go writes an empty tag id, which it leaves out: any tag id the imp had is gone.
  if (params.mid !== '') out.tagid = params.mid;
  else delete out.tagid;
  return { imp: out, params };
};

/**
 * The request's ext with Adform's price type in `pt`, as Go rebuilds it: only `prebid` (an empty
 * object when absent) and `schain` are kept from the incoming ext. An ext that does not read as
 * Prebid's request ext is an error and is sent unchanged, without `pt`.
 */
const withPriceType = (ext: unknown, priceType: string): { ext: Open } | { error: string } => {
  if (isAbsent(ext)) return { ext: { prebid: {}, pt: priceType } };
  if (!isObject(ext)) return { error: 'request.ext is not an object' };
  if (!isAbsent(ext.prebid) && !isObject(ext.prebid)) return { error: 'request.ext.prebid is not an object' };
  if (!isAbsent(ext.schain) && !isObject(ext.schain)) return { error: 'request.ext.schain is not an object' };
  return {
    ext: {
      prebid: isObject(ext.prebid) ? ext.prebid : {},
      ...(isObject(ext.schain) ? { schain: ext.schain } : {}),
      pt: priceType,
    },
  };
};

/**
 * Adform takes every imp in one POST to the endpoint, as the request came but for each imp's
 * `tagid` (its `mid`). An imp whose ext or params cannot be read is left out with a bad-input
 * error; the call is made even when no imp is left, as Prebid Server does. The first imp naming a
 * `priceType` sets `ext.pt` for the whole call. No headers are set.
 */
export const makeRequests = (request: BidRequest, context: RequestContext): { requests: RequestData[]; errors: BidderError[] } => {
  const errors: BidderError[] = [];
  const imps: Imp[] = [];
  let priceType = '';
  for (const imp of request.imp) {
    const prepared = prepareImp(imp);
    if ('error' in prepared) {
      errors.push(badInput(prepared.error));
      continue;
    }
    imps.push(prepared.imp);
    if (priceType === '') priceType = prepared.params.priceType;
  }
  const body: BidRequest = { ...request, imp: imps };
  if (priceType !== '') {
    const rebuilt = withPriceType(request.ext, priceType);
    // Go reports a request ext it cannot decode as a plain error, which has no code of its own.
    if ('error' in rebuilt) errors.push({ code: BidderErrorCode.UNKNOWN, message: rebuilt.error });
    else body.ext = rebuilt.ext;
  }
  return {
    requests: [{ method: 'POST', uri: context.endpoint, body: JSON.stringify(body), headers: {}, impIds: imps.map((imp) => imp.id) }],
    errors,
  };
};
