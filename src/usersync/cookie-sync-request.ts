import { AppError, ErrorCode } from '../core/app-error.js';
import { isObject } from '../core/json-object.js';
import { ALLOW_ALL_FILTER, bidderFilter } from './chooser.js';
import type { BidderFilter, SyncTypeFilter } from './chooser.js';

/** A `/cookie_sync` body, its fields typed as Prebid Server reads them. */
export interface CookieSyncRequest {
  readonly bidders: readonly string[];
  readonly gdpr: number | undefined;
  readonly gdprConsent: string;
  readonly usPrivacy: string;
  readonly limit: number | undefined;
  readonly gpp: string;
  readonly gppSid: string;
  readonly coopSync: boolean | undefined;
  readonly filter: SyncTypeFilter;
  readonly account: string;
  readonly debug: boolean;
}

const bad = (message: string): AppError => new AppError(ErrorCode.BAD_REQUEST, message);
const jsonError = (field: string, want: string): AppError => bad(`JSON parsing failed: ${field} must be ${want}`);

const str = (o: Record<string, unknown>, key: string): string => {
  const v = Object.hasOwn(o, key) ? o[key] : undefined;
  if (v === undefined || v === null) return '';
  if (typeof v !== 'string') throw jsonError(key, 'a string');
  return v;
};

const int = (o: Record<string, unknown>, key: string): number | undefined => {
  const v = Object.hasOwn(o, key) ? o[key] : undefined;
  if (v === undefined || v === null) return undefined;
  if (typeof v !== 'number' || !Number.isSafeInteger(v)) throw jsonError(key, 'an integer');
  return v;
};

const bool = (o: Record<string, unknown>, key: string): boolean | undefined => {
  const v = Object.hasOwn(o, key) ? o[key] : undefined;
  if (v === undefined || v === null) return undefined;
  if (typeof v !== 'boolean') throw jsonError(key, 'a boolean');
  return v;
};

/** One of `filterSettings.iframe` / `.image`, with Prebid Server's messages. */
const parseFilter = (v: unknown, name: 'iframe' | 'image'): BidderFilter => {
  if (v === undefined || v === null) return ALLOW_ALL_FILTER;
  if (!isObject(v)) throw jsonError(`filterSettings.${name}`, 'an object');
  const mode = v.filter;
  if (mode !== 'include' && mode !== 'exclude') throw bad(`error parsing filtersettings.${name}: invalid filter value '${typeof mode === 'string' ? mode : ''}'. must be either 'include' or 'exclude'`);
  const bidders = v.bidders;
  if (typeof bidders === 'string') {
    if (bidders === '*') return bidderFilter(mode, '*');
    throw bad(`error parsing filtersettings.${name}: invalid bidders value \`${bidders}\`. must either be '*' or a string array`);
  }
  if (Array.isArray(bidders) && bidders.every((b) => typeof b === 'string')) return bidderFilter(mode, bidders);
  throw bad(`error parsing filtersettings.${name}: invalid bidders type. must either be a string '*' or a string array of bidders`);
};

/** Most bidders a request may name: far more than any page has; beyond it the body is refused. */
export const MAX_REQUEST_BIDDERS = 1000;

/** The body parsed; `BAD_REQUEST` naming the field for anything Prebid Server would not read. */
export const parseCookieSyncRequest = (body: string): CookieSyncRequest => {
  let json: unknown;
  try {
    json = JSON.parse(body);
  } catch {
    throw bad('JSON parsing failed: the body is not valid JSON');
  }
  if (!isObject(json)) throw bad('JSON parsing failed: the body must be a JSON object');
  const biddersRaw = Object.hasOwn(json, 'bidders') ? json.bidders : undefined;
  let bidders: string[] = [];
  if (biddersRaw !== undefined && biddersRaw !== null) {
    if (!Array.isArray(biddersRaw) || !biddersRaw.every((b) => typeof b === 'string')) throw jsonError('bidders', 'an array of strings');
    if (biddersRaw.length > MAX_REQUEST_BIDDERS) throw bad(`bidders: at most ${MAX_REQUEST_BIDDERS} may be named`);
    bidders = biddersRaw;
  }
  const fs = Object.hasOwn(json, 'filterSettings') ? json.filterSettings : undefined;
  if (fs !== undefined && fs !== null && !isObject(fs)) throw jsonError('filterSettings', 'an object');
  const filter: SyncTypeFilter = isObject(fs) ? { iframe: parseFilter(fs.iframe, 'iframe'), redirect: parseFilter(fs.image, 'image') } : { iframe: ALLOW_ALL_FILTER, redirect: ALLOW_ALL_FILTER };
  return {
    bidders,
    gdpr: int(json, 'gdpr'),
    gdprConsent: str(json, 'gdpr_consent'),
    usPrivacy: str(json, 'us_privacy'),
    limit: int(json, 'limit'),
    gpp: str(json, 'gpp'),
    gppSid: str(json, 'gpp_sid'),
    coopSync: bool(json, 'coopSync'),
    filter,
    account: str(json, 'account'),
    debug: bool(json, 'debug') ?? false,
  };
};

/** `gpp_sid` as Prebid Server reads it: comma-separated 8-bit integers. */
export const parseGppSid = (text: string): number[] => {
  if (text === '') return [];
  return text.split(',').map((part) => {
    const n = /^[+-]?\d+$/.test(part) ? Number(part) : NaN;
    if (!Number.isInteger(n) || n < -128 || n > 127) throw bad(`gpp_sid: "${part}" is not an integer from -128 to 127`);
    return n;
  });
};

/** The GDPR signal: from `gpp_sid` when it names sections (TCF EU v2 named or not), else `gdpr` (0 or 1), else not said. */
export const gdprSignal = (gdpr: number | undefined, gppSids: readonly number[]): { signal: 0 | 1 | undefined; text: string } => {
  if (gppSids.length > 0) return gppSids.includes(2) ? { signal: 1, text: '1' } : { signal: 0, text: '0' };
  if (gdpr === undefined) return { signal: undefined, text: '' };
  if (gdpr !== 0 && gdpr !== 1) throw bad('GDPR signal should be integer 0 or 1');
  return { signal: gdpr, text: String(gdpr) };
};
