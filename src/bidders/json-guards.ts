/** Type guards for parsed JSON, as the adapters read params, exts and answers. */

/** A JSON object (not an array, not null). */
export const isObject = (v: unknown): v is Record<string, unknown> => typeof v === 'object' && v !== null && !Array.isArray(v);

/** Absent or `null`: what Go leaves at its zero value when it decodes. */
export const isAbsent = (v: unknown): v is null | undefined => v === undefined || v === null;
