import type { BidRequest, Imp } from '../../openrtb/types.js';
import { BidderErrorCode, badInput } from '../adapter.js';
import type { BidderError, RequestContext, RequestData } from '../adapter.js';
import { isAbsent, isObject } from '../json-guards.js';
import { copyToExtend } from '../../core/own-keys.js';

/** An error Prebid Server's adapter raises as a plain Go error, which it reports with code 999. */
const unknown = (message: string): BidderError => ({ code: BidderErrorCode.UNKNOWN, message });

/**
 * Reads `imp.ext.bidder` as Go decodes it into TripleLift's params: `inventoryCode` a string,
 * `floor` a number (each may be absent or null). `null` params read as none.
 */
export const readParams = (ext: unknown): { inventoryCode: string; floor?: number } | { error: string } => {
  if (!isAbsent(ext) && !isObject(ext)) return { error: 'imp.ext is not an object' };
  const bidder = isObject(ext) ? ext.bidder : undefined;
  if (bidder === undefined) return { error: 'imp.ext.bidder is missing' };
  if (bidder === null) return { inventoryCode: '' };
  if (!isObject(bidder)) return { error: 'imp.ext.bidder is not an object' };
  const { inventoryCode, floor } = bidder;
  if (!isAbsent(inventoryCode) && typeof inventoryCode !== 'string') return { error: 'imp.ext.bidder.inventoryCode is not a string' };
  if (!isAbsent(floor) && typeof floor !== 'number') return { error: 'imp.ext.bidder.floor is not a number' };
  return { inventoryCode: inventoryCode ?? '', ...(typeof floor === 'number' ? { floor } : {}) };
};

/**
 * The imp as TripleLift gets it, or the error that keeps it out: it must offer a banner or a
 * video; `inventoryCode` becomes the tag id (none when empty); `floor` replaces the imp's floor;
 * a positive floor is then given in USD (converted from `bidfloorcur` when that names another
 * currency, a bad-input error when no rate is known).
 */
export const prepareImp = (imp: Imp, context: RequestContext): { imp: Imp } | { error: BidderError } => {
  const params = readParams(imp.ext);
  if ('error' in params) return { error: unknown(`imp ${imp.id}: ${params.error}`) };
  if (isAbsent(imp.banner) && isAbsent(imp.video)) return { error: unknown('neither Banner nor Video object specified') };
  const out: Imp = copyToExtend(imp);
  if (params.inventoryCode !== '') out.tagid = params.inventoryCode;
  else delete out.tagid;
  if (params.floor !== undefined) out.bidfloor = params.floor;
  const floor = out.bidfloor ?? 0;
  if (floor > 0) {
    const cur = typeof out.bidfloorcur === 'string' ? out.bidfloorcur : '';
    if (cur !== '' && cur.toUpperCase() !== 'USD') {
      try {
        out.bidfloor = context.convertCurrency(floor, cur, 'USD');
      } catch (err) {
        return { error: badInput(`Unable to convert bid floor from ${cur} to USD: ${(err as Error).message}`) };
      }
    }
    out.bidfloorcur = 'USD';
  }
  return { imp: out };
};

/**
 * One POST with every imp TripleLift can take, the rest of the request as it came. An imp that
 * cannot go is left out with an error; when none is left there is no call, and one more error.
 */
export const makeRequests = (request: BidRequest, context: RequestContext): { requests: RequestData[]; errors: BidderError[] } => {
  const errors: BidderError[] = [];
  const imps: Imp[] = [];
  for (const imp of request.imp) {
    const prepared = prepareImp(imp, context);
    if ('error' in prepared) errors.push(prepared.error);
    else imps.push(prepared.imp);
  }
  if (imps.length === 0) return { requests: [], errors: [...errors, unknown('No valid impressions for triplelift')] };
  const body: BidRequest = { ...request, imp: imps };
  return {
    requests: [
      {
        method: 'POST',
        uri: context.endpoint,
        body: JSON.stringify(body),
        headers: { 'Content-Type': 'application/json;charset=utf-8', Accept: 'application/json' },
        impIds: imps.map((imp) => imp.id),
      },
    ],
    errors,
  };
};
