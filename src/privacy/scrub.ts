import type { BidRequest, Device, Geo, Imp, User } from '../openrtb/types.js';
import { maskIPv4, maskIPv6 } from './ip-mask.js';
import { copyToExtend } from '../core/own-keys.js';

/**
 * What to take out of one bidder's request. Each flag is one of Prebid Server's scrubbing steps;
 * a decision sets the union of the steps its rules call for.
 */
export interface ScrubPlan {
  /** `device.ifa` and the hashed device and MAC ids. */
  deviceIds?: boolean;
  /** `user.id`, `user.buyeruid`, `user.yob`, `user.gender`. */
  userDemographics?: boolean;
  /** All user first-party data: the demographics, `keywords`, `kwarray`, `data`, `ext.data`. */
  userFpd?: boolean;
  /** `user.eids` and `user.ext.eids`. */
  eids?: boolean;
  /** `device.ip` and `device.ipv6` masked to the configured prefixes. */
  ip?: boolean;
  /** Latitude and longitude of `device.geo` and `user.geo` rounded to two decimals. */
  geoRounded?: boolean;
  /** `device.geo` and `user.geo` emptied. */
  geoRemoved?: boolean;
  /** `source.tid` and `imp[].ext.tid`. */
  tid?: boolean;
}

export interface IpMasking {
  readonly ipv4KeepBits: number;
  readonly ipv6KeepBits: number;
}

const DEVICE_IDS = ['ifa', 'didsha1', 'didmd5', 'dpidsha1', 'dpidmd5', 'macsha1', 'macmd5'] as const;
const USER_DEMOGRAPHICS = ['id', 'buyeruid', 'yob', 'gender'] as const;
const USER_FPD = [...USER_DEMOGRAPHICS, 'keywords', 'kwarray', 'data'] as const;

export const isEmptyPlan = (p: ScrubPlan): boolean => !(p.deviceIds || p.userDemographics || p.userFpd || p.eids || p.ip || p.geoRounded || p.geoRemoved || p.tid);

/** As Prebid Server rounds: `int(x*100 + 0.5) / 100` (toward zero after the half is added). */
const round2 = (x: number): number => Math.trunc(x * 100 + 0.5) / 100;

const geoOf = (geo: Geo, plan: ScrubPlan): Geo => {
  if (plan.geoRemoved) return {};
  const out: Geo = copyToExtend(geo);
  if (typeof geo.lat === 'number') out.lat = round2(geo.lat);
  if (typeof geo.lon === 'number') out.lon = round2(geo.lon);
  return out;
};

const deviceOf = (device: Device, plan: ScrubPlan, ip: IpMasking): Device => {
  const out: Device = copyToExtend(device);
  if (plan.deviceIds) for (const k of DEVICE_IDS) delete out[k];
  if (plan.ip) {
    // An address that does not parse cannot be masked: it is dropped rather than passed on.
    if (typeof out.ip === 'string' && out.ip !== '') out.ip = maskIPv4(out.ip, ip.ipv4KeepBits) || undefined;
    if (typeof out.ipv6 === 'string' && out.ipv6 !== '') out.ipv6 = maskIPv6(out.ipv6, ip.ipv6KeepBits) || undefined;
    if (out.ip === undefined) delete out.ip;
    if (out.ipv6 === undefined) delete out.ipv6;
  }
  if ((plan.geoRounded || plan.geoRemoved) && out.geo !== undefined) out.geo = geoOf(out.geo, plan);
  return out;
};

const userOf = (user: User, plan: ScrubPlan): User => {
  const out: User = copyToExtend(user);
  for (const k of plan.userFpd ? USER_FPD : plan.userDemographics ? USER_DEMOGRAPHICS : []) delete out[k];
  if (plan.eids) delete out.eids;
  if (out.ext !== undefined && ((plan.eids && 'eids' in out.ext) || (plan.userFpd && 'data' in out.ext))) {
    const ext = copyToExtend(out.ext);
    if (plan.eids) delete ext.eids;
    if (plan.userFpd) delete ext.data;
    out.ext = ext;
  }
  if ((plan.geoRounded || plan.geoRemoved) && out.geo !== undefined) out.geo = geoOf(out.geo as Geo, plan);
  return out;
};

const impOf = (imp: Imp): Imp => {
  if (imp.ext === undefined || !('tid' in imp.ext)) return imp;
  const { tid: _tid, ...ext } = imp.ext;
  return { ...imp, ext };
};

/**
 * The request with the plan's data taken out. Copy on write: `request` and everything it shares
 * with other bidders' requests is left as it was; untouched parts are shared.
 */
export const scrubRequest = (request: BidRequest, plan: ScrubPlan, ip: IpMasking): BidRequest => {
  if (isEmptyPlan(plan)) return request;
  const out: BidRequest = copyToExtend(request);
  if (request.device !== undefined) out.device = deviceOf(request.device, plan, ip);
  if (request.user !== undefined) out.user = userOf(request.user, plan);
  if (plan.tid) {
    if (request.source?.tid !== undefined) {
      const { tid: _tid, ...source } = request.source;
      out.source = source;
    }
    out.imp = request.imp.map(impOf);
  }
  return out;
};
