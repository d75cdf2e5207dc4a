/** Type guards for parsed JSON, as the adapters read params, exts and answers. */

/** A JSON object (not an array, not null): the one guard of src/core, for the adapters beside the others. */
export { isObject } from '../core/json-object.js';

/** Absent or `null`: what Go leaves at its zero value when it decodes. */
export const isAbsent = (v: unknown): v is null | undefined => v === undefined || v === null;
