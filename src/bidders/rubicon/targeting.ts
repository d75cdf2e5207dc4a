import { nullProtoRecord, setOwn } from '../../core/own-keys.js';
import { isAbsent, isObject } from '../json-guards.js';

/** A targeting object Rubicon reads (`rp.target`): keys from request data, so null-prototype. */
export type Target = Record<string, unknown>;

/** A fresh target holding `existing`'s members; an error when `existing` is there but no object. */
export const startTarget = (existing: unknown, where: string): { target: Target } | { error: string } => {
  const target = nullProtoRecord<unknown>();
  if (isAbsent(existing)) return { target };
  if (!isObject(existing)) return { error: `${where} is not an object` };
  for (const [k, v] of Object.entries(existing)) setOwn(target, k, v);
  return { target };
};

/** Go's `strconv.Itoa` of an integral float: exact digits, no exponent. */
const intText = (n: number): string => BigInt(n).toString();

/**
 * Copies first-party data into a target as Rubicon wants it, every value a list of strings: a
 * string becomes `[s]`, an integral number `["n"]`, a boolean `["true"]`, a list of strings stays,
 * a list of booleans becomes their texts. Other values (objects, fractions, mixed lists) are
 * skipped. An empty list is written as `null`, as Go's adapter ends up writing it. `source`
 * must be an object (or absent).
 */
export const addFirstPartyData = (source: unknown, target: Target, where: string): string | undefined => {
  if (isAbsent(source)) return undefined;
  if (!isObject(source)) return `${where} is not an object`;
  for (const [key, val] of Object.entries(source)) {
    if (typeof val === 'string') setOwn(target, key, [val]);
    else if (typeof val === 'number') {
      if (Number.isInteger(val) && Math.abs(val) < 2 ** 63) setOwn(target, key, [intText(val)]);
    } else if (typeof val === 'boolean') setOwn(target, key, [String(val)]);
    else if (Array.isArray(val)) {
      // Go tests "all strings" then "all booleans": an empty list passes both and ends as null.
      if (val.length === 0) setOwn(target, key, null);
      else if (val.every((x) => typeof x === 'string')) setOwn(target, key, val);
      else if (val.every((x) => typeof x === 'boolean')) setOwn(target, key, val.map(String));
    }
  }
  return undefined;
};

/**
 * The segment ids of the `data` entries whose `ext.segtax` is an integer among `segtaxes`, in
 * order (an id that is absent counts as ''). Entries whose ext does not read are skipped.
 */
export const segmentIds = (data: unknown, segtaxes: readonly number[]): string[] => {
  const ids: string[] = [];
  if (!Array.isArray(data)) return ids;
  for (const entry of data) {
    if (!isObject(entry) || !isObject(entry.ext)) continue;
    const segtax = entry.ext.segtax;
    if (!Number.isInteger(segtax) || !segtaxes.includes(segtax as number)) continue;
    if (!Array.isArray(entry.segment)) continue;
    for (const segment of entry.segment) ids.push(isObject(segment) && typeof segment.id === 'string' ? segment.id : '');
  }
  return ids;
};

/** Sets `iab` on a target to the segment ids of `data` with those segtaxes, when there are any. */
export const addIabSegments = (target: Target, data: unknown, segtaxes: readonly number[]): void => {
  const ids = segmentIds(data, segtaxes);
  if (ids.length > 0) setOwn(target, 'iab', ids);
};
