import type { BidRequest, Imp } from '../../openrtb/types.js';
import { badInput } from '../adapter.js';
import type { BidderError, RequestContext, RequestData } from '../adapter.js';
import { isObject } from '../json-guards.js';
import { readParams } from './read-params.js';
import { splitByMediaType } from './split-imp.js';
import { withKey } from '../../core/own-keys.js';

/** The adapter's own version, which Sharethrough reads in `source.ext.str`. */
export const ADAPTER_VERSION = '10.0';

const HEADERS: Readonly<Record<string, string>> = { 'Content-Type': 'application/json;charset=utf-8', Accept: 'application/json' };

/**
 * `source` with `ext.str` (the adapter's version) and `ext.version` (this server's) set: an ext
 * that is a JSON object keeps its other members, anything else is replaced.
 */
export const sourceWithVersions = (source: unknown, serverVersion: string): Record<string, unknown> => {
  const base: Record<string, unknown> = isObject(source) ? { ...source } : {};
  const ext = isObject(base.ext) ? base.ext : {};
  base.ext = { ...ext, str: ADAPTER_VERSION, version: serverVersion };
  return base;
};

/** The imp's floor in USD, converting a floor in another currency; an `Error` when no rate is known. */
const floorInUsd = (imp: Imp, context: RequestContext): Imp | Error => {
  const floor = imp.bidfloor ?? 0;
  const cur = typeof imp.bidfloorcur === 'string' ? imp.bidfloorcur : '';
  if (!(floor > 0) || cur === '' || cur.toUpperCase() === 'USD') return imp;
  try {
    return { ...imp, bidfloor: context.convertCurrency(floor, cur, 'USD'), bidfloorcur: 'USD' };
  } catch (err) {
    return err instanceof Error ? err : new Error(String(err));
  }
};

/**
 * The request sent with one imp: Go re-encodes it, leaving out `test`, `tmax` and `allimps` when 0
 * and `bcat` / `badv` when empty, so those go as Go writes them.
 */
const bodyFor = (request: BidRequest, source: Record<string, unknown>, imp: Imp, bcat: readonly string[], badv: readonly string[]): string => {
  const body: Record<string, unknown> = { ...request, source, imp: [imp] };
  for (const key of ['test', 'tmax', 'allimps']) if (body[key] === 0) delete body[key];
  if (bcat.length > 0) body.bcat = bcat;
  else delete body.bcat;
  if (badv.length > 0) body.badv = badv;
  else delete body.badv;
  return JSON.stringify(body);
};

/**
 * One POST per imp and media type (an imp offering banner and video goes twice, once as each):
 * the imp gets `tagid` from `pkey` and its floor in USD; the request's `bcat` and `badv` gain the
 * params' lists, which add up imp after imp as in Prebid Server; `source.ext` gets the adapter's
 * and the server's versions. An imp whose params do not read, or with no banner, video or native,
 * is left out with a code-2 error; a floor that cannot be converted fails every call.
 */
export const makeRequests = (request: BidRequest, context: RequestContext): { requests: RequestData[]; errors: BidderError[] } => {
  const errors: BidderError[] = [];
  const requests: RequestData[] = [];
  const source = sourceWithVersions(request.source, context.host.serverVersion);
  let bcat: readonly string[] = Array.isArray(request.bcat) ? request.bcat : [];
  let badv: readonly string[] = Array.isArray(request.badv) ? request.badv : [];
  for (const imp of request.imp) {
    const params = readParams(imp.ext);
    if ('error' in params) {
      errors.push(badInput(`imp ${imp.id}: ${params.error}`));
      continue;
    }
    const floored = floorInUsd(imp, context);
    if (floored instanceof Error) return { requests: [], errors: [badInput(floored.message)] };
    const tagged: Imp = withKey(floored, 'tagid', params.pkey);
    // Go writes an empty tag id as none.
    if (params.pkey === '') delete tagged.tagid;
    bcat = [...bcat, ...params.bcat];
    badv = [...badv, ...params.badv];
    const split = splitByMediaType(tagged);
    if (split === undefined) {
      errors.push(badInput('Invalid MediaType. Sharethrough only supports Banner, Video and Native.'));
      continue;
    }
    for (const one of split) {
      requests.push({ method: 'POST', uri: context.endpoint, body: bodyFor(request, source, one, bcat, badv), headers: { ...HEADERS }, impIds: [one.id] });
    }
  }
  return { requests, errors };
};
