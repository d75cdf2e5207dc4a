import { isAbsent, isObject } from '../json-guards.js';

/** One hop of the request's path, as 33Across lists them in `ext.ttx.caller`. */
export interface TtxCaller {
  readonly name?: string;
  readonly version?: string;
}

/** The hop this server adds, as Prebid Server names itself. */
export const PBS_CALLER: TtxCaller = { name: 'Prebid-Server', version: 'n/a' };

/** A caller as Go re-encodes it: only `name` and `version`, each left out when empty. */
const readCaller = (raw: unknown): TtxCaller | { error: string } => {
  if (raw === null) return {};
  if (!isObject(raw)) return { error: 'request.ext.ttx.caller: an entry is not an object' };
  const out: { name?: string; version?: string } = {};
  for (const key of ['name', 'version'] as const) {
    const v = raw[key];
    if (isAbsent(v)) continue;
    if (typeof v !== 'string') return { error: `request.ext.ttx.caller: ${key} is not a string` };
    if (v !== '') out[key] = v;
  }
  return out;
};

/**
 * The request ext 33Across gets, as Prebid Server's adapter rebuilds it: only
 * `{ttx: {caller: [...]}}`, the request's own callers (name and version) followed by
 * {@link PBS_CALLER}. Every other member of the ext is dropped. When the ext does not decode (not
 * an object, `ttx` not an object, `caller` not a list of callers) the answer is an error, and the
 * request goes without ext.
 */
export const ttxRequestExt = (ext: unknown): { ext: { ttx: { caller: TtxCaller[] } } } | { error: string } => {
  if (!isAbsent(ext) && !isObject(ext)) return { error: 'request.ext is not an object' };
  const ttx = isObject(ext) ? ext.ttx : undefined;
  if (!isAbsent(ttx) && !isObject(ttx)) return { error: 'request.ext.ttx is not an object' };
  const callers = isObject(ttx) ? ttx.caller : undefined;
  if (!isAbsent(callers) && !Array.isArray(callers)) return { error: 'request.ext.ttx.caller is not an array' };
  const caller: TtxCaller[] = [];
  for (const raw of Array.isArray(callers) ? (callers as unknown[]) : []) {
    const read = readCaller(raw);
    if ('error' in read) return read;
    caller.push(read);
  }
  caller.push(PBS_CALLER);
  return { ext: { ttx: { caller } } };
};
