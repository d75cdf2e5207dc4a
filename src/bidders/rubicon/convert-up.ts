import type { BidRequest, Imp } from '../../openrtb/types.js';
import { isAbsent, isObject } from '../json-guards.js';
import { copyToExtend } from '../../core/own-keys.js';

/** What lives in an object-or-absent `ext`: its members, or nothing. */
const extOf = (v: unknown): Record<string, unknown> => (isObject(v) ? v : {});

/** A copy of `obj` without `key`. */
const without = <T extends Record<string, unknown>>(obj: T, key: string): T => {
  const { [key]: _dropped, ...rest } = obj;
  return rest as T;
};

/** The exts Go's conversion must be able to read; the first that is not an object, worded as Go's wrapper does. */
const extProblem = (request: BidRequest): string | undefined => {
  const notObject = (v: unknown): boolean => !isAbsent(v) && !isObject(v);
  if (notObject(request.ext)) return 'req.ext is invalid: not a JSON object';
  if (notObject(request.source?.ext)) return 'req.source.ext is invalid: not a JSON object';
  if (notObject(request.regs?.ext)) return 'req.regs.ext is invalid: not a JSON object';
  if (notObject(request.user?.ext)) return 'req.user.ext is invalid: not a JSON object';
  for (const [i, imp] of request.imp.entries()) if (notObject(imp.ext)) return `imp[${i}].imp.ext is invalid: not a JSON object`;
  return undefined;
};

const convertImp = (imp: Imp): Imp => {
  const prebid = extOf(imp.ext).prebid;
  if (!isObject(prebid)) return imp;
  const rewarded: unknown = prebid.is_rewarded_inventory;
  if (isAbsent(rewarded)) return imp;
  const ext = { ...extOf(imp.ext), prebid: without(prebid, 'is_rewarded_inventory') };
  return { ...imp, ext, ...((imp.rwdd ?? 0) === 0 ? { rwdd: rewarded } : {}) };
};

/**
 * The request in OpenRTB 2.6 places, as Prebid Server's Rubicon adapter first converts it
 * (`ConvertUpTo26`): the supply chain from `ext.schain` or `source.ext.schain` to
 * `source.schain`, `regs.ext.gdpr` / `us_privacy` to `regs`, `user.ext.consent` / `eids` to `user`,
 * `imp.ext.prebid.is_rewarded_inventory` to `imp.rwdd`, each only where the 2.6 place is empty
 * (the old place is cleared either way). A copy; an error when an ext is not an object.
 */
export const convertUpTo26 = (request: BidRequest): { request: BidRequest } | { error: string } => {
  const problem = extProblem(request);
  if (problem !== undefined) return { error: problem };
  const out: BidRequest = { ...request, imp: request.imp.map(convertImp) };

  const reqExt = extOf(request.ext);
  const sourceExt = extOf(request.source?.ext);
  const schain = request.source?.schain ?? sourceExt.schain ?? reqExt.schain;
  if (!isAbsent(reqExt.schain)) out.ext = without(reqExt, 'schain');
  if (!isAbsent(schain) || isObject(request.source)) {
    const source = { ...(isObject(request.source) ? request.source : {}) };
    if (!isAbsent(sourceExt.schain)) source.ext = without(sourceExt, 'schain');
    if (!isAbsent(schain)) source.schain = schain as NonNullable<typeof source.schain>;
    out.source = source;
  }

  if (isObject(request.regs)) {
    const regsExt = extOf(request.regs.ext);
    const regs = copyToExtend(request.regs);
    if (isAbsent(regs.gdpr) && !isAbsent(regsExt.gdpr)) regs.gdpr = regsExt.gdpr as number;
    if ((regs.us_privacy ?? '') === '' && typeof regsExt.us_privacy === 'string' && regsExt.us_privacy !== '') regs.us_privacy = regsExt.us_privacy;
    if ('gdpr' in regsExt || 'us_privacy' in regsExt) regs.ext = without(without(regsExt, 'gdpr'), 'us_privacy');
    out.regs = regs;
  }

  if (isObject(request.user)) {
    const userExt = extOf(request.user.ext);
    const user = copyToExtend(request.user);
    if ((user.consent ?? '') === '' && typeof userExt.consent === 'string') user.consent = userExt.consent;
    if (isAbsent(user.eids) && Array.isArray(userExt.eids)) user.eids = userExt.eids as NonNullable<typeof user.eids>;
    if ('consent' in userExt || 'eids' in userExt) user.ext = without(without(userExt, 'consent'), 'eids');
    out.user = user;
  }
  return { request: out };
};
