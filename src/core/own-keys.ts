/**
 * Objects keyed by request data. A bidder code, alias, currency code or JSON key may be any
 * string, `constructor`, `toString` and `__proto__` included: on a plain object those name
 * inherited members (or, for `__proto__`, the prototype itself), so reading `obj[key]` finds a
 * function and writing `obj[key] = v` can replace the prototype instead of adding a key.
 */

/**
 * The value `obj` holds under `key` as its own property, `undefined` when it has none: never an
 * inherited member such as `Object.prototype.constructor`. Safe on any object, null-prototype
 * ones included, and on whatever else request data holds where an object was expected (`null`, a
 * string, a number: `undefined`).
 */
export const ownValue = <T>(obj: Readonly<Record<string, T>> | null | undefined, key: string): T | undefined =>
  typeof obj === 'object' && obj !== null && Object.hasOwn(obj, key) ? obj[key] : undefined;

/**
 * An empty object without a prototype, for a record whose keys come from request data and that
 * goes out as JSON: every key, `__proto__` included, is an ordinary own key, read and written with
 * `[]`, and `JSON.stringify` writes it as any object.
 */
export const nullProtoRecord = <T>(): Record<string, T> => Object.create(null) as Record<string, T>;

/**
 * Sets `key` on `obj` as an own, enumerable property, even `__proto__` (which `JSON.parse` makes
 * an ordinary key, and a plain assignment would take as the prototype).
 */
export const setOwn = (obj: Record<string, unknown>, key: string, value: unknown): void => {
  if (key === '__proto__') Object.defineProperty(obj, key, { value, enumerable: true, writable: true, configurable: true });
  else obj[key] = value;
};
