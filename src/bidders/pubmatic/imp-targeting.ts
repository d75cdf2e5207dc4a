import { goFormatFloat, goTrimSpace } from '../go-text.js';
import { isObject } from '../json-guards.js';

/**
 * The targeting PubMatic reads from `imp.ext`: keywords as `key: "v1,v2"`, deal custom targeting
 * in `key_val` (`k1=v1,v2|k2=v3`), the zone in `pmZoneId` and the ad server's ad unit in
 * `dfp_ad_unit_code`. Each helper adds to the imp's new ext, kept as a Map so that a key such as
 * `__proto__` from a publisher is only ever a key.
 */
export type ImpExtMap = Map<string, unknown>;

export const DCTR_KEY = 'key_val';
export const PM_ZONE_ID_KEY = 'pmZoneId';
const PM_ZONE_ID_KEY_OLD = 'pmZoneID';
export const AD_UNIT_KEY = 'dfp_ad_unit_code';

/**
 * `keywords: [{key, value: [..]}]` → `ext[key] = "v1,v2"`; a keyword without values is skipped,
 * and the old spelling `pmZoneID` becomes `pmZoneId`. Values are joined as given (not trimmed).
 */
export const addKeywords = (keywords: unknown, ext: ImpExtMap): void => {
  if (!Array.isArray(keywords)) return;
  for (const keyword of keywords as unknown[]) {
    if (!isObject(keyword)) continue;
    const values = keyword.value;
    if (!Array.isArray(values) || values.length === 0) continue;
    const key = typeof keyword.key === 'string' ? keyword.key : '';
    ext.set(key === PM_ZONE_ID_KEY_OLD ? PM_ZONE_ID_KEY : key, values.map((v) => (typeof v === 'string' ? v : String(v))).join(','));
  }
};

/** The trimmed strings of an array, or nothing when any element is not a string. */
export const stringArray = (values: readonly unknown[]): string[] | undefined => {
  const out: string[] = [];
  for (const v of values) {
    if (typeof v !== 'string') return undefined;
    out.push(goTrimSpace(v));
  }
  return out;
};

/**
 * `imp.ext.data.adserver` naming `gam` with an `adslot` gives `dfp_ad_unit_code`; failing that
 * (and when no keyword set it), `imp.ext.data.pbadslot` does.
 */
const addAdUnit = (data: Record<string, unknown>, ext: ImpExtMap): void => {
  const adserver = data.adserver;
  if (isObject(adserver) && adserver.name === 'gam' && typeof adserver.adslot === 'string' && adserver.adslot !== '') {
    ext.set(AD_UNIT_KEY, adserver.adslot);
  }
  // Prebid Server asserts pbadslot is a string and panics otherwise; a non-string is ignored here.
  if (!ext.has(AD_UNIT_KEY) && typeof data.pbadslot === 'string') ext.set(AD_UNIT_KEY, data.pbadslot);
};

/**
 * Every other key of `imp.ext.data` is appended to `key_val` as `key=value`: strings trimmed,
 * numbers as Go prints them, booleans, and arrays of strings joined with `,`. Prebid Server
 * writes the `|` separator before it looks at the value, so a value of another type leaves an
 * empty segment (`a=1||c=3`); only one trailing `|` is removed. That is kept, as PubMatic sees it
 * from Prebid Server. Keys are taken in the order the JSON gives them (Go's map order is random).
 */
const addDataTargeting = (data: Record<string, unknown>, ext: ImpExtMap): void => {
  const existing = ext.get(DCTR_KEY);
  let dctr = typeof existing === 'string' ? existing : '';
  for (const [rawKey, value] of Object.entries(data)) {
    if (rawKey === 'pbadslot' || rawKey === 'adserver') continue;
    if (dctr.length > 0) dctr += '|';
    const key = goTrimSpace(rawKey);
    if (typeof value === 'string') dctr += `${key}=${goTrimSpace(value)}`;
    else if (typeof value === 'number') dctr += `${key}=${goFormatFloat(value)}`;
    else if (typeof value === 'boolean') dctr += `${key}=${String(value)}`;
    else if (Array.isArray(value)) {
      const strings = stringArray(value as unknown[]);
      if (strings !== undefined && strings.length > 0) dctr += `${key}=${strings.join(',')}`;
    }
  }
  if (dctr !== '') ext.set(DCTR_KEY, dctr.endsWith('|') ? dctr.slice(0, -1) : dctr);
};

/** First-party data of the imp (`imp.ext.data`, an object; anything else is ignored). */
export const addFirstPartyData = (data: unknown, ext: ImpExtMap): void => {
  if (!isObject(data)) return;
  addAdUnit(data, ext);
  addDataTargeting(data, ext);
};
