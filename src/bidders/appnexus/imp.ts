import type { Banner, Imp } from '../../openrtb/types.js';
import type { AppnexusParams } from './params.js';
import { isAbsent } from '../json-guards.js';
import { copyToExtend } from '../../core/own-keys.js';

/** `imp.ext.appnexus` as AppNexus reads it; unset fields left out, in the order Go writes them. */
export interface AppnexusImpExt {
  placement_id?: number;
  keywords?: string;
  traffic_source_code?: string;
  use_pmt_rule?: boolean;
  private_sizes?: unknown;
  ext_inv_code?: string;
  external_imp_id?: string;
}

const POSITIONS: Readonly<Record<string, number>> = { above: 1, below: 3 };

/**
 * The banner with the fold position from the `position` param, and, when it has neither `w` nor
 * `h`, the first format's size (AppNexus reads the primary size from `w`/`h`).
 */
const appnexusBanner = (banner: Banner, position: string): Banner => {
  const out: Banner = copyToExtend(banner);
  const pos = POSITIONS[position];
  if (pos !== undefined) out.pos = pos;
  const first = banner.format?.[0];
  if (isAbsent(banner.w) && isAbsent(banner.h) && first !== undefined) {
    out.w = first.w ?? 0;
    out.h = first.h ?? 0;
  }
  return out;
};

const appnexusImpExt = (p: AppnexusParams): AppnexusImpExt => ({
  ...(p.placementId !== 0 ? { placement_id: p.placementId } : {}),
  ...(p.keywords !== '' ? { keywords: p.keywords } : {}),
  ...(p.trafficSourceCode !== '' ? { traffic_source_code: p.trafficSourceCode } : {}),
  ...(p.usePmtRule !== undefined ? { use_pmt_rule: p.usePmtRule } : {}),
  ...(p.privateSizes !== undefined ? { private_sizes: p.privateSizes } : {}),
  ...(p.extInvCode !== '' ? { ext_inv_code: p.extInvCode } : {}),
  ...(p.externalImpId !== '' ? { external_imp_id: p.externalImpId } : {}),
});

/**
 * One imp as AppNexus receives it: `inv_code` as `tagid`; `reserve` as the floor when the imp has
 * no positive one (in the imp's currency, whatever it is: Prebid Server does the same); the banner
 * positioned and sized; `displaymanagerver` filled in when the SDK left it empty; and `imp.ext`
 * replaced by `{appnexus: {...}, gpid}`. Every other member of the imp passes as it came.
 */
export const appnexusImp = (imp: Imp, params: AppnexusParams, gpid: string, displayManagerVer: string): Imp => {
  const out: Imp = copyToExtend(imp);
  if (params.invCode !== '') out.tagid = params.invCode;
  if (!((imp.bidfloor ?? 0) > 0) && params.reserve > 0) out.bidfloor = params.reserve;
  if (!isAbsent(imp.banner)) out.banner = appnexusBanner(imp.banner, params.position);
  if ((isAbsent(imp['displaymanagerver']) || imp['displaymanagerver'] === '') && displayManagerVer !== '') out['displaymanagerver'] = displayManagerVer;
  out.ext = { appnexus: appnexusImpExt(params), ...(gpid !== '' ? { gpid } : {}) };
  return out;
};
