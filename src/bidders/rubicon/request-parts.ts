import type { BidRequest, Device, Regs, Source, User } from '../../openrtb/types.js';
import { isAbsent, isObject } from '../json-guards.js';
import { addFirstPartyData, addIabSegments, startTarget } from './targeting.js';

// Segment taxonomies Rubicon reads: content taxonomies for the site, audience taxonomy 4 for the user.
const SITE_SEGTAXES = [1, 2, 5, 6] as const;
const USER_SEGTAXES = [4] as const;

const member = (obj: unknown, key: string): unknown => (isObject(obj) ? obj[key] : undefined);

/**
 * The user as Rubicon takes it: `ext` becomes `{eids, rp: {target}, consent}` (eids and consent
 * moved there from the user, each only when set), the target holding `user.ext.rp.target`, the
 * `visitor` params, `user.ext.data`, and the ids of `user.data` segments of taxonomy 4. `geo`,
 * `yob`, `gender` are not sent.
 */
export const rubiconUser = (user: User, visitor: unknown): { user: User } | { error: string } => {
  const started = startTarget(member(member(user.ext, 'rp'), 'target'), 'user.ext.rp.target');
  if ('error' in started) return started;
  const target = started.target;
  const problem = addFirstPartyData(visitor, target, 'imp.ext.bidder.visitor') ?? addFirstPartyData(member(user.ext, 'data'), target, 'user.ext.data');
  if (problem !== undefined) return { error: problem };
  addIabSegments(target, user.data, USER_SEGTAXES);
  const ext: Record<string, unknown> = {};
  if (Array.isArray(user.eids) && user.eids.length > 0) ext.eids = user.eids;
  ext.rp = { target };
  if (typeof user.consent === 'string' && user.consent !== '') ext.consent = user.consent;
  const { geo: _geo, yob: _yob, gender: _gender, eids: _eids, consent: _consent, ...rest } = user;
  return { user: { ...rest, ext } };
};

/** The device with `ext` replaced by Rubicon's `{rp: {pixelratio}}` (0 when `pxratio` is absent). */
export const rubiconDevice = (device: Device): Device => ({
  ...device,
  ext: { rp: { pixelratio: typeof device.pxratio === 'number' ? device.pxratio : 0 } },
});

/**
 * Site or app as Rubicon takes them: `ext` becomes `{rp: {site_id}}` (for a site, with a target
 * of the ids of `content.data` segments of taxonomies 1, 2, 5, 6 when there are any), and the
 * publisher is only `{ext: {rp: {account_id}}}`. A request with a site uses the site.
 */
export const withInventory = (request: BidRequest, siteId: number, accountId: number): Pick<BidRequest, 'site' | 'app'> => {
  const publisher = { ext: { rp: { account_id: accountId } } };
  if (isObject(request.site)) {
    const rp: Record<string, unknown> = { site_id: siteId };
    if (isObject(request.site.content)) {
      const target: Record<string, unknown> = {};
      addIabSegments(target, request.site.content.data, SITE_SEGTAXES);
      if (Object.keys(target).length > 0) rp.target = target;
    }
    return { site: { ...request.site, ext: { rp }, publisher } };
  }
  if (isObject(request.app)) return { app: { ...request.app, ext: { rp: { site_id: siteId } }, publisher } };
  return {};
};

/** The source with its supply chain back in `ext` (`ext` keeps only `schain`, as Go's struct does). */
export const rubiconSource = (source: Source | undefined): Source | undefined => {
  if (!isObject(source) || isAbsent(source.schain)) return source;
  const { schain, ...rest } = source;
  return { ...rest, ext: { schain } };
};

/**
 * Regs with GDPR and US privacy back in `ext` (`ext` keeps `dsa`, `gdpr`, `us_privacy`, as Go's
 * struct does), when either is set; otherwise as they are.
 */
export const rubiconRegs = (regs: Regs | undefined): Regs | undefined => {
  if (!isObject(regs)) return regs;
  const usPrivacy = typeof regs.us_privacy === 'string' ? regs.us_privacy : '';
  if (isAbsent(regs.gdpr) && usPrivacy === '') return regs;
  const old = isObject(regs.ext) ? regs.ext : {};
  const ext: Record<string, unknown> = {};
  if (!isAbsent(old.dsa)) ext.dsa = old.dsa;
  if (!isAbsent(regs.gdpr)) ext.gdpr = regs.gdpr;
  if (usPrivacy !== '') ext.us_privacy = usPrivacy;
  const { gdpr: _gdpr, us_privacy: _usp, ...rest } = regs;
  return { ...rest, ext };
};
