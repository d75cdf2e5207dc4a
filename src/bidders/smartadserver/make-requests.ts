import type { BidRequest, Imp } from '../../openrtb/types.js';
import { nullProtoRecord, setOwn } from '../../core/own-keys.js';
import { badInput } from '../adapter.js';
import type { BidderError, RequestContext, RequestData } from '../adapter.js';
import { isAbsent, isObject } from '../json-guards.js';
import { smartEndpointUrl } from './endpoint-url.js';

/** Where programmatic guaranteed imps go: fixed in Prebid Server, whatever the configured endpoint. */
export const PG_HOST = 'https://prebid-global.smartadserver.com';

/** The bidder params as Go decodes them: absent or null ids are 0. */
export interface SmartParams {
  readonly siteId: number;
  readonly pageId: number;
  readonly formatId: number;
  readonly networkId: number;
  readonly programmaticGuaranteed: boolean;
}

const ID_KEYS = ['siteId', 'pageId', 'formatId', 'networkId'] as const;

// Go's int is 64 bits: an integer past it does not decode.
const fitsGoInt = (v: unknown): v is number => Number.isInteger(v) && Math.abs(v as number) <= 2 ** 63;
const fitsInt8 = (v: unknown): boolean => Number.isInteger(v) && (v as number) >= -128 && (v as number) <= 127;

const BAD_EXT = 'Error parsing bidderExt object';
const BAD_PARAMS = 'Error parsing smartadserverExt parameters';

/**
 * Reads `imp.ext` as Prebid Server's adapter decodes it: the ext must be an object whose `prebid`
 * is an object and `ae` a small integer when present (else `Error parsing bidderExt object`); its
 * `bidder` must be present, and be null or an object of integer ids and a boolean
 * `programmaticGuaranteed` (else `Error parsing smartadserverExt parameters`).
 */
export const readParams = (ext: unknown): SmartParams | { error: string } => {
  // A null ext decodes to nothing in Go, so it lacks a bidder like an empty one.
  if (ext === undefined || (ext !== null && !isObject(ext))) return { error: BAD_EXT };
  const obj = ext ?? {};
  if (!isAbsent(obj.prebid) && !isObject(obj.prebid)) return { error: BAD_EXT };
  if (!isAbsent(obj.ae) && !fitsInt8(obj.ae)) return { error: BAD_EXT };
  const bidder = obj.bidder;
  if (bidder === undefined) return { error: BAD_PARAMS };
  const params = { siteId: 0, pageId: 0, formatId: 0, networkId: 0, programmaticGuaranteed: false };
  if (bidder === null) return params;
  if (!isObject(bidder)) return { error: BAD_PARAMS };
  for (const key of ID_KEYS) {
    const v = bidder[key];
    if (isAbsent(v)) continue;
    if (!fitsGoInt(v)) return { error: BAD_PARAMS };
    params[key] = v;
  }
  const pg = bidder.programmaticGuaranteed;
  if (!isAbsent(pg) && typeof pg !== 'boolean') return { error: BAD_PARAMS };
  params.programmaticGuaranteed = pg === true;
  return params;
};

/**
 * The imp's ext as Equativ gets it: the ext as it came without `bidder`, and the four ids under
 * `key` (`bidder`, or `smartadserver` when the call is programmatic guaranteed), replacing what
 * was there. A null-prototype copy, as its keys are request data.
 */
const smartImpExt = (ext: unknown, key: 'bidder' | 'smartadserver', params: SmartParams): Record<string, unknown> => {
  const out = nullProtoRecord<unknown>();
  if (isObject(ext)) for (const [k, v] of Object.entries(ext)) if (k !== 'bidder') setOwn(out, k, v);
  out[key] = { siteId: params.siteId, pageId: params.pageId, formatId: params.formatId, networkId: params.networkId };
  return out;
};

/** The request's site, or a new one, with its publisher (or a new one) whose id is the network id. */
const smartSite = (site: unknown, networkId: number): Record<string, unknown> => {
  const copy = isObject(site) ? { ...site } : {};
  const publisher = isObject(copy.publisher) ? { ...copy.publisher } : {};
  // Go's strconv.Itoa: an integer in plain digits.
  publisher.id = BigInt(networkId).toString();
  return { ...copy, publisher };
};

/**
 * One POST with every imp whose ext reads (the others are left out with a bad-input error each).
 * When any imp's params say `programmaticGuaranteed`, the call goes to Equativ's programmatic
 * guaranteed host (`/ortb`) and every imp's ids move to `ext.smartadserver`; otherwise to the
 * endpoint's `/api/bid?callerId=5`, ids under `ext.bidder`. The request always gets a site (even
 * for app traffic), whose publisher id is the network id of the last imp read. No imp at all is
 * an error; so is an endpoint without a scheme or host (no call then).
 */
export const makeRequests = (request: BidRequest, context: RequestContext): { requests: RequestData[]; errors: BidderError[] } => {
  const imps: readonly Imp[] = Array.isArray(request.imp) ? request.imp : [];
  if (imps.length === 0) return { requests: [], errors: [badInput('No impression in the bid request')] };
  const errors: BidderError[] = [];
  const read: { imp: Imp; params: SmartParams }[] = [];
  for (const imp of imps) {
    const params = readParams(imp.ext);
    if ('error' in params) errors.push(badInput(params.error));
    else read.push({ imp, params });
  }
  if (read.length === 0) return { requests: [], errors };
  const programmaticGuaranteed = read.some(({ params }) => params.programmaticGuaranteed);
  const key = programmaticGuaranteed ? 'smartadserver' : 'bidder';
  const sent = read.map(({ imp, params }): Imp => ({ ...imp, ext: smartImpExt(imp.ext, key, params) }));
  const base = programmaticGuaranteed ? PG_HOST : context.endpoint;
  const uri = smartEndpointUrl(base, programmaticGuaranteed);
  if (uri === undefined) return { requests: [], errors: [...errors, badInput(`Malformed URL: ${base}.`)] };
  const body: BidRequest = { ...request, site: smartSite(request.site, read[read.length - 1]!.params.networkId), imp: sent };
  return {
    requests: [
      {
        method: 'POST',
        uri,
        body: JSON.stringify(body),
        headers: { 'Content-Type': 'application/json;charset=utf-8', Accept: 'application/json' },
        impIds: sent.map((imp) => imp.id),
      },
    ],
    errors,
  };
};
