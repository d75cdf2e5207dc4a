import { setOwn, withKey } from '../core/own-keys.js';
import type { StoredFetchOptions, StoredRequestFetcher } from './stored-request-fetcher.js';
import { isObject } from '../core/json-object.js';

type Json = Record<string, unknown>;

/**
 * JSON Merge Patch (RFC 7386): `patch` applied to `target`. Objects merge key by key, a `null` in
 * the patch deletes the key, anything else (arrays included) replaces. Pure: neither argument is
 * modified; untouched parts of `target` are shared with the result.
 */
export const mergePatch = (target: unknown, patch: unknown): unknown => {
  if (!isObject(patch)) return patch;
  const out: Json = {};
  if (isObject(target)) for (const [k, v] of Object.entries(target)) setOwn(out, k, v);
  for (const [k, v] of Object.entries(patch)) {
    if (v === null) delete out[k];
    else setOwn(out, k, mergePatch(Object.hasOwn(out, k) ? out[k] : undefined, v));
  }
  return out;
};

/** The stored request a request names in `ext.prebid.storedrequest.id`, or why it cannot be read. */
export const storedRequestIdOf = (request: Json): { id?: string; error?: string } => {
  const stored = prebidOf(request)?.storedrequest;
  if (!isObject(stored) || !Object.hasOwn(stored, 'id')) return {};
  return typeof stored.id === 'string' ? { id: stored.id } : { error: 'ext.prebid.storedrequest.id must be a string' };
};

/** The stored imp an imp names in `ext.prebid.storedrequest.id`; an empty id names none. */
export const storedImpIdOf = (imp: unknown, index: number): { id?: string; error?: string } => {
  const stored = isObject(imp) ? prebidOf(imp)?.storedrequest : undefined;
  if (!isObject(stored) || !Object.hasOwn(stored, 'id')) return {};
  if (typeof stored.id !== 'string') return { error: `request.imp[${index}].ext.prebid.storedrequest.id must be a string` };
  return stored.id === '' ? {} : { id: stored.id };
};

const prebidOf = (o: Json): Json | undefined => {
  const ext = o.ext;
  return isObject(ext) && isObject(ext.prebid) ? ext.prebid : undefined;
};

/** A stored request's `id` of `{{UUID}}` asks for a fresh id per auction. */
export const UUID_MACRO = '{{UUID}}';

/**
 * The request over its stored request: the request's own fields win, `null` deletes a stored
 * field. A stored `id` of `{{UUID}}` becomes `newId()` (Prebid Server replaces it whatever the
 * request says; it also lets the stored request win over the request then, which looks
 * unintended: here the request's other fields still win).
 */
export const mergeStoredRequest = (request: Json, stored: Json, newId?: () => string): Json => {
  const merged = mergePatch(stored, request) as Json;
  if (stored.id === UUID_MACRO && newId !== undefined) merged.id = newId();
  return merged;
};

/** An imp over its stored imp: the imp's own fields win. */
export const mergeStoredImp = (imp: Json, stored: Json): Json => mergePatch(stored, imp) as Json;

export interface ResolveStoredOptions extends StoredFetchOptions {
  /** Replaces a stored request `id` of `{{UUID}}`; without it the id stays as stored. */
  readonly newId?: () => string;
}

/** A request with its stored data merged in, or the problems that stop it (each a 400 for the caller). */
export interface ResolvedRequest {
  /** The merged request; the request as given when there are errors. */
  readonly request: Json;
  /** Prebid Server's messages: missing ids, ids that are not strings, stored data that is not a JSON object. */
  readonly errors: string[];
  /** The stored request's id, when the request named one. */
  readonly storedRequestId?: string;
}

/**
 * Merges stored data into a request as Prebid Server does: the stored request named by
 * `ext.prebid.storedrequest.id` under the request, then each imp over the stored imp its
 * `ext.prebid.storedrequest.id` names. All ids are collected and fetched in one call. When the
 * request has no `imp` of its own and takes the stored request's imps, those imps' stored imps
 * are fetched in a second call (Prebid Server leaves them unresolved). Fetcher failures
 * (`BACKEND_FAILURE`, `BACKEND_TIMEOUT`) reject; everything else is in `errors`.
 */
export const resolveStoredData = async (request: Json, fetcher: StoredRequestFetcher, opts: ResolveStoredOptions = {}): Promise<ResolvedRequest> => {
  const errors: string[] = [];
  const { id: requestId, error } = storedRequestIdOf(request);
  if (error !== undefined) errors.push(error);
  const ownImps = Array.isArray(request.imp) ? request.imp : undefined;
  const impIds = ownImps === undefined ? [] : collectImpIds(ownImps, errors);
  if (errors.length > 0) return { request, errors };
  if (requestId === undefined && impIds.length === 0) return { request, errors };

  const fetchOpts: StoredFetchOptions = { ...(opts.accountId === undefined ? {} : { accountId: opts.accountId }), ...(opts.signal === undefined ? {} : { signal: opts.signal }) };
  const found = await fetcher.fetchRequests(requestId === undefined ? [] : [requestId], impIds, fetchOpts);
  const withId = (r: ResolvedRequest): ResolvedRequest => (requestId === undefined ? r : withKey(r, 'storedRequestId', requestId));

  let merged = request;
  if (requestId !== undefined) {
    const text = found.requests.get(requestId);
    if (text === undefined) return withId({ request, errors: [`Stored Request with ID="${requestId}" not found.`] });
    const stored = parseObject(text);
    if (typeof stored === 'string') return withId({ request, errors: [`ext.prebid.storedrequest.id refers to Stored Request ${requestId} which contains Invalid JSON: ${stored}`] });
    merged = mergeStoredRequest(request, stored, opts.newId);
  }

  let imps = found.imps;
  if (ownImps === undefined && Array.isArray(merged.imp)) {
    // The imps come from the stored request: their stored imps are known only now.
    const storedImpIds = collectImpIds(merged.imp, errors);
    if (errors.length > 0) return withId({ request, errors });
    if (storedImpIds.length > 0) imps = (await fetcher.fetchRequests([], storedImpIds, fetchOpts)).imps;
  }
  if (Array.isArray(merged.imp)) {
    const resolvedImps = merged.imp.map((imp, i) => {
      const { id } = storedImpIdOf(imp, i);
      if (id === undefined) return imp as unknown;
      const text = imps.get(id);
      if (text === undefined) {
        errors.push(`Stored Imp with ID="${id}" not found.`);
        return imp as unknown;
      }
      const stored = parseObject(text);
      if (typeof stored === 'string') {
        errors.push(`imp.ext.prebid.storedrequest.id ${id}: Stored Imp has Invalid JSON: ${stored}`);
        return imp as unknown;
      }
      return mergeStoredImp(imp as Json, stored);
    });
    if (errors.length > 0) return withId({ request, errors: [...new Set(errors)] });
    merged = merged === request ? { ...request, imp: resolvedImps } : Object.assign(merged, { imp: resolvedImps });
  }
  return withId({ request: merged, errors });
};

const collectImpIds = (imps: readonly unknown[], errors: string[]): string[] => {
  const ids = new Set<string>();
  imps.forEach((imp, i) => {
    const { id, error } = storedImpIdOf(imp, i);
    if (error !== undefined) errors.push(error);
    else if (id !== undefined) ids.add(id);
  });
  return [...ids];
};

/** Stored JSON text as an object, or the reason it is not one. */
const parseObject = (text: string): Json | string => {
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch {
    return 'the text does not parse';
  }
  return isObject(value) ? value : 'not a JSON object';
};
