import { isAbsent, isObject } from '../json-guards.js';

/** Sharethrough's params as the adapter uses them, once their types are known to fit. */
export interface SharethroughParams {
  /** The placement key; empty when absent. */
  readonly pkey: string;
  readonly badv: readonly string[];
  readonly bcat: readonly string[];
}

/** A list of strings as Go decodes `[]string`: null items read as empty strings; `false` when it does not decode. */
const stringList = (v: unknown): string[] | false => {
  if (isAbsent(v)) return [];
  if (!Array.isArray(v)) return false;
  const out: string[] = [];
  for (const item of v as unknown[]) {
    if (isAbsent(item)) out.push('');
    else if (typeof item === 'string') out.push(item);
    else return false;
  }
  return out;
};

/**
 * Reads `imp.ext` as Go decodes it into Prebid's imp ext and then Sharethrough's params:
 * `ext` an object holding `bidder` (`null` reads as no params), `ext.prebid` an object if set,
 * `pkey` a string, `badv` and `bcat` lists of strings. Otherwise why not, naming the field.
 */
export const readParams = (ext: unknown): SharethroughParams | { error: string } => {
  if (!isAbsent(ext) && !isObject(ext)) return { error: 'imp.ext is not an object' };
  if (isObject(ext) && !isAbsent(ext.prebid) && !isObject(ext.prebid)) return { error: 'imp.ext.prebid is not an object' };
  const bidder = isObject(ext) ? ext.bidder : undefined;
  if (bidder === undefined) return { error: 'imp.ext.bidder is missing' };
  if (bidder === null) return { pkey: '', badv: [], bcat: [] };
  if (!isObject(bidder)) return { error: 'imp.ext.bidder is not an object' };
  if (!isAbsent(bidder.pkey) && typeof bidder.pkey !== 'string') return { error: 'imp.ext.bidder.pkey is not a string' };
  const badv = stringList(bidder.badv);
  if (badv === false) return { error: 'imp.ext.bidder.badv is not an array of strings' };
  const bcat = stringList(bidder.bcat);
  if (bcat === false) return { error: 'imp.ext.bidder.bcat is not an array of strings' };
  return { pkey: typeof bidder.pkey === 'string' ? bidder.pkey : '', badv, bcat };
};
