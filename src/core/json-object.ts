/** A parsed JSON value that is an object: not an array, not `null`. The one guard every folder uses. */
export const isObject = (v: unknown): v is Record<string, unknown> => typeof v === 'object' && v !== null && !Array.isArray(v);
