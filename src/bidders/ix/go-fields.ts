import { isAbsent, isObject } from '../json-guards.js';

/**
 * How Prebid Server's JSON decoder (json-iterator, not case-sensitive) finds a struct field in an
 * object: a key matching the field's name in any ASCII case, the last such key winning. Index
 * Exchange's adapter decodes every ext it reads that way, so `siteID`, `siteid` and `siteId` are
 * one field. Kept apart so the adapter's rules read without the decoder's.
 */

/** ASCII lower case, as the decoder folds names (it leaves other letters as they are). */
const asciiLower = (s: string): string => s.replace(/[A-Z]/g, (c) => c.toLowerCase());

/**
 * The value Go decodes into the field `name` of a struct from `obj`: the last own key equal to
 * `name` in ASCII case-insensitive comparison; `undefined` when none.
 */
export const goField = (obj: Readonly<Record<string, unknown>>, name: string): unknown => {
  const wanted = asciiLower(name);
  let found: unknown;
  for (const key of Object.keys(obj)) {
    if (asciiLower(key) === wanted) found = obj[key];
  }
  return found;
};

/** A JSON value Go decodes into a string field without error: a string, or null/absent (left empty). */
export const fitsGoString = (v: unknown): boolean => isAbsent(v) || typeof v === 'string';

/** A JSON value Go decodes into an int64 field: an integer in range, or null/absent. */
export const fitsGoInt = (v: unknown): boolean => isAbsent(v) || (Number.isInteger(v) && Math.abs(v as number) <= 2 ** 63);

/** A JSON value Go decodes into a struct (or a pointer to one): an object, or null/absent. */
export const fitsGoStruct = (v: unknown): boolean => isAbsent(v) || isObject(v);

/** A JSON value Go decodes into a slice whose elements each pass `item` (null elements are zero values). */
export const fitsGoSlice = (v: unknown, item: (x: unknown) => boolean): boolean => isAbsent(v) || (Array.isArray(v) && v.every((x) => isAbsent(x) || item(x)));
