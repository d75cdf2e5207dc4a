import type { PriceGranularitySetting } from '../openrtb/types.js';

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

const MAX_PRECISION = 15;

/**
 * Resolves a `pricegranularity` setting: a name, or `{precision, ranges}` (precision 2 when
 * absent; each range's `min` defaults to the previous `max`). `undefined` is `medium`. A custom
 * setting that is not usable gives `error` and no granularity.
 */
export const resolvePriceGranularity = (setting: PriceGranularitySetting | undefined): { granularity?: PriceGranularity; error?: string } => {
  if (setting === undefined) return { granularity: NAMED.medium! };
  if (typeof setting === 'string') {
    // Own keys only: `constructor` or `__proto__` is no granularity.
    const g = Object.hasOwn(NAMED, setting) ? NAMED[setting] : undefined;
    return g !== undefined ? { granularity: g } : { error: `"${setting}" is not a price granularity (low, medium, high, auto, dense, or {precision, ranges})` };
  }
  if (typeof setting !== 'object' || setting === null || !Array.isArray(setting.ranges) || setting.ranges.length === 0) {
    return { error: 'a custom price granularity needs a non-empty ranges array' };
  }
  const precision = setting.precision ?? 2;
  if (!Number.isInteger(precision) || precision < 0 || precision > MAX_PRECISION) return { error: `precision must be an integer from 0 to ${MAX_PRECISION}` };
  const ranges: GranularityRange[] = [];
  let previousMax = 0;
  for (const [i, r] of setting.ranges.entries()) {
    const raw = r as { min?: unknown; max?: unknown; increment?: unknown };
    const min = raw.min === undefined ? previousMax : raw.min;
    if (typeof raw.max !== 'number' || typeof raw.increment !== 'number' || typeof min !== 'number') return { error: `ranges[${i}] needs numbers max and increment` };
    if (!(raw.increment > 0)) return { error: `ranges[${i}].increment must be greater than 0` };
    if (!(raw.max > min)) return { error: `ranges[${i}].max must be greater than its min ${min}` };
    if (min < previousMax) return { error: `ranges[${i}] overlaps the range before it` };
    ranges.push({ min, max: raw.max, increment: raw.increment });
    previousMax = raw.max;
  }
  return { granularity: { precision, ranges } };
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
