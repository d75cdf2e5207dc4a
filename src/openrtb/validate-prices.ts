import { isObject } from '../core/json-object.js';
/**
 * The price settings of a request: `ext.prebid.bidadjustmentfactors`, `ext.prebid.currency` and
 * the price granularities of `ext.prebid.targeting`. Prebid Server rejects a request whose
 * settings are unusable rather than auction with a guess, and so does this: each problem is a
 * line of the 400, in Prebid Server's words where it has them.
 */

const isPositiveNumber = (v: unknown): v is number => typeof v === 'number' && Number.isFinite(v) && v > 0;
const isFiniteNumber = (v: unknown): v is number => typeof v === 'number' && Number.isFinite(v);

/** A request can hold thousands of rates or factors: past this many bad ones, the rest are counted, not listed (the 400 stays near the request's size). */
const MAX_PROBLEMS_PER_MAP = 20;

/** The highest `precision` Prebid Server accepts (its `MaxDecimalFigures`). */
export const MAX_PRICE_PRECISION = 15;

/** Prebid's named granularities (`med` is `medium`). */
export const PRICE_GRANULARITY_NAMES: readonly string[] = ['low', 'medium', 'med', 'high', 'auto', 'dense'];

/** A value as a message quotes it: numbers as Go's `%f` writes them, as Prebid Server's messages do; `1e999` (which JSON.parse reads as Infinity) as `Infinity`. */
const got = (v: unknown): string => {
  if (typeof v === 'number') return Number.isFinite(v) ? v.toFixed(6) : String(v);
  const text = JSON.stringify(v);
  return text === undefined ? String(v) : text.length > 80 ? `${text.slice(0, 80)}…` : text;
};

/** The problems found in one map, at most `MAX_PROBLEMS_PER_MAP` of them and then a count of the rest. */
const capped = (problems: string[], where: string): string[] =>
  problems.length <= MAX_PROBLEMS_PER_MAP ? problems : [...problems.slice(0, MAX_PROBLEMS_PER_MAP), `${where}: ${problems.length - MAX_PROBLEMS_PER_MAP} more problems not listed`];

const isCurrencyCode = (code: string): boolean => /^[A-Za-z]{3}$/.test(code);

/**
 * The problems of `ext.prebid.bidadjustmentfactors`: each factor must be a positive, finite
 * number (Prebid Server: `request.ext.prebid.bidadjustmentfactors.<bidder> must be a positive
 * number. Got <value>`). An empty list means every factor can multiply a price.
 */
export const bidAdjustmentFactorProblems = (factors: unknown): string[] => {
  if (factors === undefined) return [];
  if (!isObject(factors)) return ['request.ext.prebid.bidadjustmentfactors must be a JSON object'];
  const problems: string[] = [];
  for (const [bidder, factor] of Object.entries(factors)) {
    if (!isPositiveNumber(factor)) problems.push(`request.ext.prebid.bidadjustmentfactors.${bidder} must be a positive number. Got ${got(factor)}`);
  }
  return capped(problems, 'request.ext.prebid.bidadjustmentfactors');
};

/**
 * The problems of `ext.prebid.currency`: `rates` maps well-formed three-letter codes to
 * well-formed codes to positive, finite rates (Prebid Server: `currency code <code> is not
 * recognized or malformed`), and `usepbsrates` is a boolean. An empty list means the converter
 * can use every rate as given.
 */
export const currencyProblems = (currency: unknown): string[] => {
  if (currency === undefined) return [];
  if (!isObject(currency)) return ['request.ext.prebid.currency must be a JSON object'];
  const problems: string[] = [];
  const use = currency.usepbsrates;
  if (use !== undefined && typeof use !== 'boolean') problems.push(`request.ext.prebid.currency.usepbsrates must be true or false. Got ${got(use)}`);
  const rates = currency.rates;
  if (rates === undefined) return problems;
  if (!isObject(rates)) return [...problems, 'request.ext.prebid.currency.rates must be a JSON object'];
  const rateProblems: string[] = [];
  for (const [from, quotes] of Object.entries(rates)) {
    if (!isCurrencyCode(from)) rateProblems.push(`currency code ${from} is not recognized or malformed`);
    if (!isObject(quotes)) {
      rateProblems.push(`request.ext.prebid.currency.rates.${from} must be a JSON object`);
      continue;
    }
    for (const [to, rate] of Object.entries(quotes)) {
      if (!isCurrencyCode(to)) rateProblems.push(`currency code ${to} is not recognized or malformed`);
      if (!isPositiveNumber(rate)) rateProblems.push(`request.ext.prebid.currency.rates.${from}.${to} must be a positive number. Got ${got(rate)}`);
    }
  }
  return [...problems, ...capped(rateProblems, 'request.ext.prebid.currency.rates')];
};

/**
 * The first problem of one price granularity setting (`where` names it in the message), or
 * `undefined` when it is usable. Prebid Server's rules: a name, or an object whose `precision`
 * (2 when absent) is an integer from 0 to 15 and whose `ranges` (`medium` when absent or empty)
 * have increasing `max` above 0 and an `increment` above 0. Each range starts at the previous
 * one's `max` whatever its `min` says, so `min` only has to be a number.
 */
export const priceGranularityProblem = (setting: unknown, where: string): string | undefined => {
  if (typeof setting === 'string') {
    return PRICE_GRANULARITY_NAMES.includes(setting) ? undefined : `${where} must be one of ${PRICE_GRANULARITY_NAMES.join(', ')}, or an object with "precision" and "ranges". Got ${got(setting)}`;
  }
  if (!isObject(setting)) return `${where} must be one of ${PRICE_GRANULARITY_NAMES.join(', ')}, or an object with "precision" and "ranges". Got ${got(setting)}`;
  const precision = setting.precision;
  if (precision !== undefined) {
    if (typeof precision !== 'number' || !Number.isInteger(precision)) return `${where}.precision must be an integer. Got ${got(precision)}`;
    if (precision < 0) return `Price granularity error: precision must be non-negative (${where}.precision)`;
    if (precision > MAX_PRICE_PRECISION) return `Price granularity error: precision of more than ${MAX_PRICE_PRECISION} significant figures is not supported (${where}.precision)`;
  }
  const ranges = setting.ranges;
  if (ranges === undefined) return undefined;
  if (!Array.isArray(ranges)) return `${where}.ranges must be an array`;
  let previousMax = 0;
  for (const [i, range] of (ranges as unknown[]).entries()) {
    const at = `${where}.ranges[${i}]`;
    if (!isObject(range)) return `${at} must be a JSON object`;
    for (const k of ['max', 'increment'] as const) {
      if (!isFiniteNumber(range[k])) return `${at}.${k} must be a number. Got ${got(range[k])}`;
    }
    if (range.min !== undefined && !isFiniteNumber(range.min)) return `${at}.min must be a number. Got ${got(range.min)}`;
    const max = range.max as number;
    if (max <= previousMax) return `Price granularity error: range list must be ordered with increasing "max" (${at}.max)`;
    if ((range.increment as number) <= 0) return `Price granularity error: increment must be a nonzero positive number (${at}.increment)`;
    previousMax = max;
  }
  return undefined;
};

/** The problems of `ext.prebid.targeting.pricegranularity` and `mediatypepricegranularity.<banner|video|native>`. */
export const targetingGranularityProblems = (targeting: unknown): string[] => {
  if (!isObject(targeting)) return [];
  const problems: string[] = [];
  const where = 'request.ext.prebid.targeting';
  if (targeting.pricegranularity !== undefined) {
    const p = priceGranularityProblem(targeting.pricegranularity, `${where}.pricegranularity`);
    if (p !== undefined) problems.push(p);
  }
  const byType = targeting.mediatypepricegranularity;
  if (byType === undefined) return problems;
  if (!isObject(byType)) return [...problems, `${where}.mediatypepricegranularity must be a JSON object`];
  // Prebid Server reads these three types only; another key is ignored, as there.
  for (const type of ['banner', 'video', 'native'] as const) {
    if (byType[type] === undefined) continue;
    const p = priceGranularityProblem(byType[type], `${where}.mediatypepricegranularity.${type}`);
    if (p !== undefined) problems.push(p);
  }
  return problems;
};

/** Every problem of the request's price settings (`ext.prebid` as given, possibly not an object). */
export const priceSettingProblems = (prebid: unknown): string[] => {
  if (!isObject(prebid)) return [];
  return [...bidAdjustmentFactorProblems(prebid.bidadjustmentfactors), ...currencyProblems(prebid.currency), ...targetingGranularityProblems(prebid.targeting)];
};
