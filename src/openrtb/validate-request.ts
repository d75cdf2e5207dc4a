import { priceSettingProblems } from './validate-prices.js';
import { isObject } from '../core/json-object.js';

const isPositiveInt = (v: unknown): boolean => typeof v === 'number' && Number.isInteger(v) && v > 0;

/**
 * Checks the parts of an OpenRTB request the exchange relies on, and names every problem found,
 * in Prebid Server's words where it has them (`request.imp[1].banner has no sizes...`). An empty
 * list means the value can be used as a `BidRequest`. Bidder codes and params are checked
 * later, per bidder, because an unknown bidder only costs that bidder.
 */
export const validateBidRequest = (value: unknown): string[] => {
  if (!isObject(value)) return ['request must be a JSON object'];
  const problems: string[] = [];
  if (typeof value.id !== 'string' || value.id === '') problems.push('request missing required field: "id"');
  const contexts = ['site', 'app', 'dooh'].filter((k) => value[k] !== undefined);
  if (contexts.length !== 1) problems.push('request.site or request.app must be defined, but not both.');
  for (const k of contexts) if (!isObject(value[k])) problems.push(`request.${k} must be a JSON object`);
  if (value.tmax !== undefined && (typeof value.tmax !== 'number' || !Number.isInteger(value.tmax) || value.tmax < 0)) {
    problems.push(`request.tmax must be a nonnegative integer. Got ${JSON.stringify(value.tmax)}`);
  }
  if (value.cur !== undefined && (!Array.isArray(value.cur) || !value.cur.every((c) => typeof c === 'string' && /^[A-Za-z]{3}$/.test(c)))) {
    problems.push('request.cur must be an array of ISO-4217 currency codes');
  }
  for (const k of ['device', 'user', 'regs', 'source', 'ext'] as const) {
    if (value[k] !== undefined && !isObject(value[k])) problems.push(`request.${k} must be a JSON object`);
  }
  if (isObject(value.ext) && value.ext.prebid !== undefined && !isObject(value.ext.prebid)) problems.push('request.ext.prebid must be a JSON object');
  problems.push(...validateAliases(value));
  if (isObject(value.ext)) problems.push(...priceSettingProblems(value.ext.prebid));
  problems.push(...validateImps(value.imp));
  return problems;
};

const validateAliases = (value: Record<string, unknown>): string[] => {
  const prebid = isObject(value.ext) && isObject(value.ext.prebid) ? value.ext.prebid : undefined;
  const aliases = prebid?.aliases;
  if (aliases === undefined) return [];
  if (!isObject(aliases)) return ['request.ext.prebid.aliases must be a JSON object'];
  const problems: string[] = [];
  for (const [alias, target] of Object.entries(aliases)) {
    if (typeof target !== 'string' || target === '') problems.push(`request.ext.prebid.aliases.${alias} must name a bidder`);
    else if (target === alias) problems.push(`request.ext.prebid.aliases.${alias} defines a no-op alias. Choose a different alias, or remove this entry.`);
  }
  return problems;
};

const validateImps = (imps: unknown): string[] => {
  if (!Array.isArray(imps) || imps.length === 0) return ['request.imp must contain at least one element.'];
  const problems: string[] = [];
  const seen = new Map<string, number>();
  imps.forEach((imp: unknown, i) => {
    const at = `request.imp[${i}]`;
    if (!isObject(imp)) {
      problems.push(`${at} must be a JSON object`);
      return;
    }
    if (typeof imp.id !== 'string' || imp.id === '') {
      problems.push(`${at} missing required field: "id"`);
    } else {
      const first = seen.get(imp.id);
      if (first !== undefined) problems.push(`request.imp[${first}].id and ${at}.id are both "${imp.id}". Imp IDs must be unique.`);
      else seen.set(imp.id, i);
    }
    if (!['banner', 'video', 'audio', 'native'].some((t) => imp[t] !== undefined)) {
      problems.push(`${at} must contain at least one of "banner", "video", "audio", or "native"`);
    }
    problems.push(...validateBanner(imp.banner, at), ...validateVideo(imp.video, at), ...validateNative(imp.native, at));
    if (imp.bidfloor !== undefined && (typeof imp.bidfloor !== 'number' || imp.bidfloor < 0)) problems.push(`${at}.bidfloor must be a nonnegative number`);
    if (imp.ext !== undefined && !isObject(imp.ext)) problems.push(`${at}.ext must be a JSON object`);
    else if (bidderCount(imp.ext) === 0) problems.push(`${at}.ext.prebid.bidder must contain at least one bidder`);
  });
  return problems;
};

const bidderCount = (ext: Record<string, unknown> | undefined): number => {
  const prebid = isObject(ext?.prebid) ? ext.prebid : undefined;
  if (isObject(prebid?.bidder)) return Object.keys(prebid.bidder).length;
  // The legacy form puts bidders straight under imp.ext; a stored imp may supply them later.
  return Object.keys(ext ?? {}).filter((k) => k !== 'prebid' && k !== 'data' && k !== 'gpid' && k !== 'tid' && k !== 'context').length + (isObject(prebid?.storedrequest) ? 1 : 0);
};

const validateBanner = (banner: unknown, at: string): string[] => {
  if (banner === undefined) return [];
  if (!isObject(banner)) return [`${at}.banner must be a JSON object`];
  const format = banner.format;
  if (format !== undefined && !Array.isArray(format)) return [`${at}.banner.format must be an array`];
  const problems: string[] = [];
  const formats = (format as unknown[] | undefined) ?? [];
  formats.forEach((f, j) => {
    if (!isObject(f)) problems.push(`${at}.banner.format[${j}] must be a JSON object`);
    else if (!isPositiveInt(f.w) || !isPositiveInt(f.h)) problems.push(`${at}.banner.format[${j}] must define non-zero integers "w" and "h"`);
  });
  const hasWh = isPositiveInt(banner.w) && isPositiveInt(banner.h);
  if (formats.length === 0 && !hasWh) problems.push(`${at}.banner has no sizes. Define "w" and "h", or include "format" elements.`);
  return problems;
};

const validateVideo = (video: unknown, at: string): string[] => {
  if (video === undefined) return [];
  if (!isObject(video)) return [`${at}.video must be a JSON object`];
  if (!Array.isArray(video.mimes) || video.mimes.length === 0 || !video.mimes.every((m) => typeof m === 'string')) {
    return [`${at}.video.mimes must contain at least one supported MIME type`];
  }
  return [];
};

const validateNative = (native: unknown, at: string): string[] => {
  if (native === undefined) return [];
  if (!isObject(native)) return [`${at}.native must be a JSON object`];
  if (typeof native.request !== 'string' || native.request === '') return [`${at}.native missing required property "request"`];
  return [];
};
