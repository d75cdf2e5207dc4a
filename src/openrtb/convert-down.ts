import { isObject } from '../core/json-object.js';
import type { BidRequest, Imp } from './types.js';

/** The converted request, or why it cannot be: an `ext` that must receive a field is not a JSON object. */
export type ConvertDownResult = { readonly ok: true; readonly request: BidRequest } | { readonly ok: false; readonly error: string };

type Obj = Record<string, unknown>;

/**
 * The request a bidder reading OpenRTB 2.5 receives, as Prebid Server's exchange converts it
 * (`ConvertDownTo25`): `source.schain` → `source.ext.schain`, `regs.gdpr` → `regs.ext.gdpr`,
 * `regs.us_privacy` → `regs.ext.us_privacy`, `user.consent` → `user.ext.consent`, `user.eids` →
 * `user.ext.eids`, `imp[].rwdd` → `imp[].ext.prebid.is_rewarded_inventory`. A value already in
 * the 2.5 place is overwritten; an empty `eids` list removes `user.ext.eids`; an `ext` left empty
 * is dropped. Nothing else changes: Prebid Server clears no other 2.6 field on this path.
 *
 * Pure: the input is not modified; objects on the changed paths are copied, the rest shared. An
 * `ext` (or `imp.ext.prebid`) that must receive a field but is not an object (or `null`) is a
 * failure (`ok: false`), as Prebid Server fails to read it.
 */
export const convertDownTo25 = (request: BidRequest): ConvertDownResult => {
  let out: BidRequest = request;

  const source = request.source;
  if (source !== undefined && source.schain !== undefined && source.schain !== null) {
    const { schain, ...rest } = source;
    const ext = withExt(rest.ext, 'source.ext', { schain });
    if (typeof ext === 'string') return { ok: false, error: ext };
    out = { ...out, source: setExt(rest, ext) };
  }

  const regs = request.regs;
  if (regs !== undefined) {
    const moved: Obj = {};
    let next: Obj = regs;
    if (regs.gdpr !== undefined && regs.gdpr !== null) {
      const { gdpr, ...rest } = next;
      moved.gdpr = gdpr;
      next = rest;
    }
    if (typeof regs.us_privacy === 'string' && regs.us_privacy !== '') {
      const { us_privacy, ...rest } = next;
      moved.us_privacy = us_privacy;
      next = rest;
    }
    if (next !== regs) {
      const ext = withExt(next.ext, 'regs.ext', moved);
      if (typeof ext === 'string') return { ok: false, error: ext };
      out = { ...out, regs: setExt(next, ext) };
    }
  }

  const user = request.user;
  if (user !== undefined) {
    const moved: Obj = {};
    const removed: string[] = [];
    let next: Obj = user;
    if (typeof user.consent === 'string' && user.consent !== '') {
      const { consent, ...rest } = next;
      moved.consent = consent;
      next = rest;
    }
    if (user.eids !== undefined && user.eids !== null) {
      const { eids, ...rest } = next;
      // Prebid Server writes no empty list: an empty one clears the 2.5 place too.
      if (Array.isArray(eids) && eids.length === 0) removed.push('eids');
      else moved.eids = eids;
      next = rest;
    }
    if (next !== user) {
      const ext = withExt(next.ext, 'user.ext', moved, removed);
      if (typeof ext === 'string') return { ok: false, error: ext };
      out = { ...out, user: setExt(next, ext) };
    }
  }

  if (request.imp.some((imp) => rewardedOf(imp) !== undefined)) {
    const imps: Imp[] = [];
    for (const [i, imp] of request.imp.entries()) {
      const converted = impDownTo25(imp, i);
      if (typeof converted === 'string') return { ok: false, error: converted };
      imps.push(converted);
    }
    out = { ...out, imp: imps };
  }
  return { ok: true, request: out };
};

/** `rwdd` when it moves: Prebid Server's int8, where 0 is "not set". */
const rewardedOf = (imp: Imp): unknown => (imp.rwdd !== undefined && imp.rwdd !== null && imp.rwdd !== 0 ? imp.rwdd : undefined);

const impDownTo25 = (imp: Imp, i: number): Imp | string => {
  const rwdd = rewardedOf(imp);
  if (rwdd === undefined) return imp;
  const { rwdd: _moved, ...rest } = imp;
  const at = `imp[${i}].ext`;
  const ext = rest.ext === undefined || rest.ext === null ? {} : rest.ext;
  if (!isObject(ext)) return `${at} must be a JSON object to receive the 2.5 form of imp.rwdd`;
  const prebid = ext.prebid === undefined || ext.prebid === null ? {} : ext.prebid;
  if (!isObject(prebid)) return `${at}.prebid must be a JSON object to receive the 2.5 form of imp.rwdd`;
  return { ...rest, ext: { ...ext, prebid: { ...prebid, is_rewarded_inventory: rwdd } } } as Imp;
};

/** `ext` with `moved` written over it and `removed` deleted, or why it cannot take them. */
const withExt = (ext: unknown, at: string, moved: Obj, removed: readonly string[] = []): Obj | string => {
  const base = ext === undefined || ext === null ? {} : ext;
  if (!isObject(base)) return `${at} must be a JSON object to receive the OpenRTB 2.5 form of its 2.6 fields`;
  const next: Obj = { ...base, ...moved };
  for (const key of removed) Reflect.deleteProperty(next, key);
  return next;
};

/** `obj` with `ext` set, or without it when empty (Prebid Server drops an empty ext). */
const setExt = <T extends Obj>(obj: T, ext: Obj): T => {
  const { ext: _old, ...rest } = obj;
  return (Object.keys(ext).length === 0 ? rest : { ...rest, ext }) as T;
};
