import type { PriceGranularitySetting } from '../openrtb/types.js';
import { priceGranularityProblem } from '../openrtb/validate-prices.js';

/** One range of a price granularity: prices from `min` up to `max` go down to a multiple of `increment` above `min`. */
export interface GranularityRange {
  readonly min: number;
  readonly max: number;
  readonly increment: number;
}

/** A resolved price granularity: `precision` decimals, ascending ranges. */
export interface PriceGranularity {
  readonly precision: number;
  readonly ranges: readonly GranularityRange[];
}

const named = (ranges: [number, number, number][]): PriceGranularity => ({ precision: 2, ranges: ranges.map(([min, max, increment]) => ({ min, max, increment })) });

/** Prebid's named granularities (Prebid.js and Prebid Server define them alike). */
const NAMED: Readonly<Record<string, PriceGranularity>> = {
  low: named([[0, 5, 0.5]]),
  medium: named([[0, 20, 0.1]]),
  med: named([[0, 20, 0.1]]),
  high: named([[0, 20, 0.01]]),
  auto: named([[0, 5, 0.05], [5, 10, 0.1], [10, 20, 0.5]]),
  dense: named([[0, 3, 0.01], [3, 8, 0.05], [8, 20, 0.5]]),
};

/**
 * Resolves a `pricegranularity` setting: a name, or `{precision, ranges}` (precision 2 when
 * absent; no ranges, or none, is `medium`). As in Prebid Server, each range starts at the
 * previous one's `max` (the first at 0), whatever its `min` says. `undefined` is `medium`. A
 * setting that is not usable gives `error`, Prebid Server's message naming `where`, and no
 * granularity.
 */
export const resolvePriceGranularity = (setting: PriceGranularitySetting | undefined, where = 'pricegranularity'): { granularity?: PriceGranularity; error?: string } => {
  if (setting === undefined) return { granularity: NAMED.medium! };
  const error = priceGranularityProblem(setting, where);
  if (error !== undefined) return { error };
  // A name was checked against Prebid's list, so an inherited key (`constructor`) never gets here.
  if (typeof setting === 'string') return { granularity: NAMED[setting]! };
  if (setting.ranges === undefined || setting.ranges.length === 0) return { granularity: NAMED.medium! };
  let previousMax = 0;
  const ranges = setting.ranges.map((r): GranularityRange => {
    const range = { min: previousMax, max: r.max, increment: r.increment };
    previousMax = r.max;
    return range;
  });
  return { granularity: { precision: setting.precision ?? 2, ranges } };
};

/**
 * The bucket of a price, as `hb_pb` carries it: rounded down to its range's increment, capped at
 * the top range's max, written with the granularity's decimals. A price in no range (below the
 * first one's min) or not above 0 is the bucket `0`.
 */
export const priceBucket = (cpm: number, g: PriceGranularity): string => {
  const top = g.ranges[g.ranges.length - 1]!;
  if (!(cpm > 0)) return (0).toFixed(g.precision);
  if (cpm > top.max) return top.max.toFixed(g.precision);
  const range = g.ranges.find((r) => cpm <= r.max && cpm >= r.min);
  if (range === undefined) return (0).toFixed(g.precision);
  // A tiny epsilon keeps floating point from dropping an exact step (1.29 / 0.01 = 128.999…).
  const steps = Math.floor((cpm - range.min) / range.increment + 1e-9);
  const bucket = range.min + steps * range.increment;
  return (Math.round(bucket * 1e9) / 1e9).toFixed(g.precision);
};
