import { isObject } from '../json-guards.js';

/**
 * The member of a JSON object Go's decoder puts in the struct field named `name`: keys match
 * regardless of case, and when several do, the last one in the text wins (each overwrites the
 * field). `undefined` when none matches or `obj` is not an object.
 */
export const goField = (obj: unknown, name: string): unknown => {
  if (!isObject(obj)) return undefined;
  const folded = name.toLowerCase();
  let found: unknown;
  for (const key of Object.keys(obj)) {
    if (key.toLowerCase() === folded) found = obj[key];
  }
  return found;
};
