import { isAbsent, isObject } from '../json-guards.js';

/** Rubicon's params as the adapter reads them, after Go's decoding rules. */
export interface RubiconParams {
  /** `accountId`, `siteId`, `zoneId` as the text Go's `json.Number` holds ('' when absent). */
  readonly accountId: string;
  readonly siteId: string;
  readonly zoneId: string;
  readonly inventory: unknown;
  readonly visitor: unknown;
  readonly bidOnMultiformat: boolean;
  readonly keywords: readonly string[];
  readonly video: { readonly sizeId: number; readonly skip: number; readonly skipDelay: number };
}

/** `imp.ext` as Rubicon's adapter decodes it: the params and the first-party fields it forwards. */
export interface RubiconImpExt {
  readonly bidder: RubiconParams;
  readonly gpid: string;
  readonly tid: string;
  /** `imp.ext.skadn`, forwarded as it came; `undefined` when absent. */
  readonly skadn: unknown;
  /** `imp.ext.data`, read for targeting; `undefined` when absent. */
  readonly data: unknown;
}

/** Go's `json.Number` decoding: a number's text, a string as it is, '' for null; else not a number. */
const numberText = (v: unknown): string | undefined => {
  if (isAbsent(v)) return '';
  if (typeof v === 'string') return v;
  if (typeof v === 'number') return String(v);
  return undefined;
};

const isInt = (v: unknown): v is number => Number.isInteger(v);
const intOr0 = (v: unknown): number => (isInt(v) ? v : 0);

// The field and the kind of value Go needs there; absent and null always decode.
type Check = readonly [string, (v: unknown) => boolean, string];

const NUMBER_TEXT = (v: unknown): boolean => numberText(v) !== undefined;
const PARAM_CHECKS: readonly Check[] = [
  ['accountId', NUMBER_TEXT, 'a number'],
  ['siteId', NUMBER_TEXT, 'a number'],
  ['zoneId', NUMBER_TEXT, 'a number'],
  ['bidonmultiformat', (v) => typeof v === 'boolean', 'a boolean'],
  ['keywords', (v) => Array.isArray(v) && v.every((k) => isAbsent(k) || typeof k === 'string'), 'an array of strings'],
  ['video', isObject, 'an object'],
  ['debug', isObject, 'an object'],
];
const VIDEO_CHECKS: readonly Check[] = [
  ['language', (v) => typeof v === 'string', 'a string'],
  ['playerHeight', NUMBER_TEXT, 'a number'],
  ['playerWidth', NUMBER_TEXT, 'a number'],
  ['size_id', isInt, 'an integer'],
  ['skip', isInt, 'an integer'],
  ['skipdelay', isInt, 'an integer'],
];

const firstProblem = (obj: Record<string, unknown>, checks: readonly Check[], where: string): string | undefined => {
  for (const [name, ok, kind] of checks) {
    const v = obj[name];
    if (!isAbsent(v) && !ok(v)) return `${where}.${name} is not ${kind}`;
  }
  return undefined;
};

/** The first character of a value's JSON text, as Go's decoder names what it found. */
const firstJsonChar = (v: unknown): string => (JSON.stringify(v) ?? '').charAt(0);

/**
 * Decodes `imp.ext` as Prebid Server's Rubicon adapter does: `bidder` must be an object (null
 * reads as empty params), its fields of the types Go declares, `gpid` and `tid` strings,
 * `prebid` an object. A wrong type fails the imp, with a message saying which field.
 */
export const readImpExt = (ext: unknown): RubiconImpExt | { error: string } => {
  if (!isObject(ext)) return { error: 'imp.ext is not an object' };
  const bidder = ext.bidder;
  if (!isAbsent(bidder) && !isObject(bidder)) {
    // Go's decoder words this case so; matched for the common case of a misplaced array or value.
    return { error: `cannot unmarshal rubicon.rubiconExtImpBidder.Bidder: expect { or n, but found ${firstJsonChar(bidder)}` };
  }
  const params = isObject(bidder) ? bidder : {};
  const problem =
    firstProblem(params, PARAM_CHECKS, 'imp.ext.bidder') ??
    (isObject(params.video) ? firstProblem(params.video, VIDEO_CHECKS, 'imp.ext.bidder.video') : undefined) ??
    (isObject(params.debug) && !isAbsent(params.debug.cpmoverride) && typeof params.debug.cpmoverride !== 'number'
      ? 'imp.ext.bidder.debug.cpmoverride is not a number'
      : undefined) ??
    firstProblem(ext, [
      ['gpid', (v) => typeof v === 'string', 'a string'],
      ['tid', (v) => typeof v === 'string', 'a string'],
      ['prebid', isObject, 'an object'],
    ], 'imp.ext');
  if (problem !== undefined) return { error: problem };
  const video = isObject(params.video) ? params.video : {};
  return {
    bidder: {
      accountId: numberText(params.accountId) ?? '',
      siteId: numberText(params.siteId) ?? '',
      zoneId: numberText(params.zoneId) ?? '',
      inventory: params.inventory,
      visitor: params.visitor,
      bidOnMultiformat: params.bidonmultiformat === true,
      keywords: Array.isArray(params.keywords) ? params.keywords.map((k) => (typeof k === 'string' ? k : '')) : [],
      video: { sizeId: intOr0(video.size_id), skip: intOr0(video.skip), skipDelay: intOr0(video.skipdelay) },
    },
    gpid: typeof ext.gpid === 'string' ? ext.gpid : '',
    tid: typeof ext.tid === 'string' ? ext.tid : '',
    skadn: ext.skadn ?? undefined,
    data: ext.data ?? undefined,
  };
};

const INT64_MAX = 2n ** 63n - 1n;
const INT64_MIN = -(2n ** 63n);

/**
 * Go's `strconv.ParseInt(text, 10, 64)`, as the adapter reads its ids: an optional sign and
 * decimal digits within int64. Its error message word for word when the text is not one.
 */
export const parseGoInt = (text: string): { value: number } | { error: string } => {
  const quoted = JSON.stringify(text);
  if (!/^[+-]?\d+$/.test(text)) return { error: `strconv.ParseInt: parsing ${quoted}: invalid syntax` };
  const big = BigInt(text);
  if (big > INT64_MAX || big < INT64_MIN) return { error: `strconv.ParseInt: parsing ${quoted}: value out of range` };
  return { value: Number(big) };
};
