import { BID_META_NAMES } from '../bid-meta.js';
import { isAbsent, isObject } from '../json-guards.js';

// The members Go's structs for `ext.prebid` and `ext.prebid.meta` know; the others do not survive.
const PREBID_KEYS: readonly string[] = ['cache', 'dealpriority', 'dealtiersatisfied', 'meta', 'targeting', 'targetbiddercode', 'type', 'video', 'events', 'bidid', 'passthrough', 'floors'];
const META_KEYS = BID_META_NAMES;

/** Go's `omitempty`: null, '', 0, false and empty lists are not written. */
const isEmpty = (v: unknown): boolean => isAbsent(v) || v === '' || v === 0 || v === false || (Array.isArray(v) && v.length === 0);

const known = (obj: Record<string, unknown>, keys: readonly string[]): Record<string, unknown> => {
  const out: Record<string, unknown> = {};
  for (const key of keys) if (Object.hasOwn(obj, key) && !isEmpty(obj[key])) out[key] = obj[key];
  return out;
};

/**
 * A bid's `ext` with the seat's buyer (`networkId`, when positive) and seat name put in
 * `prebid.meta`, as Rubicon's adapter does when either is set. The ext is rewritten as Go's
 * structs write it: only `prebid` (its known members) and `bidder` stay. An ext that does not read
 * as those structs stays as it came.
 */
export const withBuyerMeta = (ext: unknown, buyer: number, seat: string): unknown => {
  if (buyer <= 0 && seat === '') return ext;
  if (!isAbsent(ext) && !isObject(ext)) return ext;
  const source = isObject(ext) ? ext : {};
  if (!isAbsent(source.prebid) && !isObject(source.prebid)) return ext;
  const prebidIn = isObject(source.prebid) ? source.prebid : {};
  if (!isAbsent(prebidIn.meta) && !isObject(prebidIn.meta)) return ext;
  const prebid = known(prebidIn, PREBID_KEYS);
  const meta = known(isObject(prebidIn.meta) ? prebidIn.meta : {}, META_KEYS);
  if (buyer !== 0) meta.networkId = buyer;
  else delete meta.networkId;
  if (seat !== '') meta.seat = seat;
  else delete meta.seat;
  prebid.meta = meta;
  return { prebid, ...(isAbsent(source.bidder) ? {} : { bidder: source.bidder }) };
};

/** Go's `strconv.Atoi`, 0 when the text is not an int64 (as the adapter reads a seat's `buyer`). */
export const buyerId = (buyer: unknown): number => {
  if (typeof buyer !== 'string' || !/^[+-]?\d+$/.test(buyer)) return 0;
  const big = BigInt(buyer);
  return big > 2n ** 63n - 1n || big < -(2n ** 63n) ? 0 : Number(big);
};

/** JSON as Go's encoder writes it: `<`, `>`, `&`, U+2028 and U+2029 escaped. */
export const goJsonText = (value: unknown): string =>
  (JSON.stringify(value) ?? 'null').replace(/[<>&\u2028\u2029]/g, (c) => `\\u${c.charCodeAt(0).toString(16).padStart(4, '0')}`);
