import { isAbsent, isObject } from '../json-guards.js';
import { fitsInt64 } from '../go-text.js';

/**
 * The params of one AppNexus imp as the adapter uses them: old spellings resolved, ids read the
 * way Prebid Server's Go types read them. The schema has already passed them, so the checks here
 * are for what it lets through but Go would not decode (a `placement_id` of "abc"), and for
 * callers that skip the schema.
 */
export interface AppnexusParams {
  /** 0 when none. */
  readonly placementId: number;
  readonly invCode: string;
  /** The member id as text ("" when none): numbers print as their integer digits. */
  readonly member: string;
  /** Keywords flattened to AppNexus's `k=v,k=v2,k3` form ("" when none). */
  readonly keywords: string;
  readonly trafficSourceCode: string;
  readonly reserve: number;
  readonly position: string;
  readonly usePmtRule?: boolean;
  readonly privateSizes?: unknown;
  readonly generateAdPodId: boolean;
  readonly extInvCode: string;
  readonly externalImpId: string;
}

/** What an imp's ext gives: its params and its global placement id. */
export interface ImpExtRead {
  readonly params: AppnexusParams;
  /** `imp.ext.gpid`, "" when absent. */
  readonly gpid: string;
}


class ParamError extends Error {}

/**
 * A placement id, which may be written as a number or as text. Text is read as Go's jsonparser
 * reads an integer: an optional `-` then digits ("" and "-" are 0; a `+`, a point or spaces are
 * not integers); numbers must be integers; both must fit in 64 bits.
 */
export const readPlacementId = (value: unknown, name: string): number => {
  if (isAbsent(value)) return 0;
  let n: bigint;
  if (typeof value === 'number') {
    if (!Number.isInteger(value)) throw new ParamError(`${name} must be an integer`);
    n = BigInt(value);
  } else if (typeof value === 'string') {
    if (!/^-?[0-9]*$/.test(value)) throw new ParamError(`${name} must be an integer or a string of one`);
    n = value === '' || value === '-' ? 0n : BigInt(value);
  } else {
    throw new ParamError(`${name} must be an integer or a string of one`);
  }
  if (!fitsInt64(n)) throw new ParamError(`${name} is out of range`);
  return Number(n);
};

/** The member id as text: a string as written, an integer as its digits (never in exponent form). */
export const readMember = (value: unknown): string => {
  if (value === undefined) return '';
  if (typeof value === 'string') return value;
  if (typeof value === 'number' && Number.isFinite(value)) return Number.isInteger(value) ? BigInt(value).toString() : String(value);
  throw new ParamError('member must be an integer or a string');
};

const stringArray = (v: unknown): v is string[] => Array.isArray(v) && v.every((s) => typeof s === 'string');

/**
 * Keywords in AppNexus's text form. A string is taken as it is; a list of `{key, value: [..]}` or
 * an object of key → values gives `key=value` per value, or the bare key when it has none, joined
 * with commas in the order written. (Prebid Server walks the object form as a Go map, in an order
 * that changes from call to call; the written order is the stable choice.)
 */
export const keywordsText = (keywords: unknown): string => {
  if (isAbsent(keywords)) return '';
  if (typeof keywords === 'string') return keywords;
  const pairs: [string, unknown][] = [];
  if (Array.isArray(keywords)) {
    for (const kv of keywords as unknown[]) {
      if (!isObject(kv)) throw new ParamError('keywords must be objects with a key and values');
      if (!isAbsent(kv.key) && typeof kv.key !== 'string') throw new ParamError('keywords[].key must be a string');
      pairs.push([typeof kv.key === 'string' ? kv.key : '', kv.value]);
    }
  } else if (isObject(keywords)) {
    pairs.push(...Object.entries(keywords));
  } else {
    throw new ParamError('keywords must be a string, a list or an object');
  }
  const parts: string[] = [];
  for (const [key, values] of pairs) {
    if (!isAbsent(values) && !stringArray(values)) throw new ParamError(`keywords: the values of "${key}" must be strings`);
    if (isAbsent(values) || values.length === 0) parts.push(key);
    else for (const v of values) parts.push(`${key}=${v}`);
  }
  return parts.join(',');
};

const optionalString = (params: Record<string, unknown>, name: string): string => {
  const v = params[name];
  if (isAbsent(v)) return '';
  if (typeof v !== 'string') throw new ParamError(`${name} must be a string`);
  return v;
};

const optionalBoolean = (params: Record<string, unknown>, name: string): boolean | undefined => {
  const v = params[name];
  if (isAbsent(v)) return undefined;
  if (typeof v !== 'boolean') throw new ParamError(`${name} must be a boolean`);
  return v;
};

/** The first non-empty of the new spelling and the old one, as Prebid Server's legacy handling picks. */
const either = <T>(current: T, legacy: T, empty: T): T => (current === empty ? legacy : current);

const readParams = (bidder: Record<string, unknown>): AppnexusParams => {
  const reserve = bidder.reserve;
  if (!isAbsent(reserve) && typeof reserve !== 'number') throw new ParamError('reserve must be a number');
  const usePmtRule = optionalBoolean(bidder, 'use_pmt_rule') ?? optionalBoolean(bidder, 'use_payment_rule');
  const privateSizes = bidder.private_sizes;
  return {
    placementId: either(readPlacementId(bidder.placement_id, 'placement_id'), readPlacementId(bidder.placementId, 'placementId'), 0),
    invCode: either(optionalString(bidder, 'inv_code'), optionalString(bidder, 'invCode'), ''),
    member: readMember(bidder.member),
    keywords: keywordsText(bidder.keywords),
    trafficSourceCode: either(optionalString(bidder, 'traffic_source_code'), optionalString(bidder, 'trafficSourceCode'), ''),
    reserve: typeof reserve === 'number' ? reserve : 0,
    position: optionalString(bidder, 'position'),
    generateAdPodId: optionalBoolean(bidder, 'generate_ad_pod_id') ?? false,
    extInvCode: optionalString(bidder, 'ext_inv_code'),
    externalImpId: optionalString(bidder, 'external_imp_id'),
    ...(usePmtRule === undefined ? {} : { usePmtRule }),
    ...(isAbsent(privateSizes) ? {} : { privateSizes }),
  };
};

/**
 * Reads `imp.ext` (`bidder` and `gpid`). An imp that names neither a placement nor a member with
 * an inventory code gets Prebid Server's error; a param of a type Go cannot decode gets one
 * saying which.
 */
export const readImpExt = (ext: unknown): ImpExtRead | { error: string } => {
  if (!isObject(ext)) return { error: 'imp.ext must be an object' };
  const bidder = ext.bidder;
  if (!isAbsent(bidder) && !isObject(bidder)) return { error: 'imp.ext.bidder must be an object' };
  const gpid = ext.gpid;
  if (!isAbsent(gpid) && typeof gpid !== 'string') return { error: 'imp.ext.gpid must be a string' };
  let params: AppnexusParams;
  try {
    params = readParams(bidder ?? {});
  } catch (err) {
    if (err instanceof ParamError) return { error: `imp.ext.bidder.${err.message}` };
    throw err;
  }
  if (params.placementId === 0 && (params.invCode === '' || params.member === '')) return { error: 'No placement or member+invcode provided' };
  return { params, gpid: typeof gpid === 'string' ? gpid : '' };
};
