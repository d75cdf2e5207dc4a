import { ownValue } from '../core/own-keys.js';
import { isObject } from '../core/json-object.js';

/** Currency rates as Prebid writes them: from → to → rate (`{"USD": {"EUR": 0.9}}`). */
export type Rates = Readonly<Record<string, Readonly<Record<string, number>>>>;

export interface CurrencyConverterOptions {
  /** `ext.prebid.currency.rates` of the request: they win over the server's. */
  readonly requestRates?: Rates;
  /**
   * The server's rates (`auction.currency`), when it has any, codes already upper-case (as
   * `parseRatesDocument` gives them): a full table is not copied again on every auction.
   */
  readonly serverRates?: Rates;
  /** `ext.prebid.currency.usepbsrates`: `false` forbids falling back to the server's rates. */
  readonly usePbsRates?: boolean;
}

export interface CurrencyConverter {
  /**
   * `amount` in `to`, by a positive, finite rate; throws an `Error` naming the pair when no rate
   * applies. The product can still overflow to Infinity or underflow to 0: callers check it.
   */
  convert(amount: number, from: string, to: string): number;
}

const isRate = (r: unknown): r is number => typeof r === 'number' && Number.isFinite(r) && r > 0;

/**
 * A rate from one table: direct, inverse, or across one intermediate currency. Only a positive,
 * finite rate is answered: the inverse of a tiny rate (1e-320) or the ratio of two far apart is
 * Infinity or 0, which is no rate, so the next way (or table) is tried. Own keys only: a bidder
 * may name any currency, and `rates[code]` must never find an inherited member.
 */
const rateIn = (rates: Rates, from: string, to: string): number | undefined => {
  const direct = ownValue(ownValue(rates, from), to);
  if (isRate(direct)) return direct;
  const inverse = ownValue(ownValue(rates, to), from);
  if (isRate(inverse) && isRate(1 / inverse)) return 1 / inverse;
  // Rates are usually quoted from a few base currencies: go through one of them.
  for (const quotes of Object.values(rates)) {
    const toTarget = ownValue(quotes, to);
    const toSource = ownValue(quotes, from);
    if (isRate(toTarget) && isRate(toSource) && isRate(toTarget / toSource)) return toTarget / toSource;
  }
  return undefined;
};

/**
 * The request's rates with codes upper-case. It is request data, not checked before: a table or a
 * row that is not a JSON object (`null`, a number) counts as empty.
 */
const upper = (rates: unknown): Rates | undefined =>
  !isObject(rates) ? undefined : Object.fromEntries(Object.entries(rates).map(([from, q]) => [from.toUpperCase(), !isObject(q) ? {} : Object.fromEntries(Object.entries(q).map(([to, r]) => [to.toUpperCase(), r as number]))]));

/**
 * Converts with the request's rates first, then the server's (unless `usePbsRates` is false), as
 * Prebid Server does. Codes are compared upper-case.
 */
export const createCurrencyConverter = (opts: CurrencyConverterOptions): CurrencyConverter => {
  const tables = [upper(opts.requestRates), opts.usePbsRates === false ? undefined : opts.serverRates].filter((t): t is Rates => t !== undefined);
  return {
    convert(amount, fromCode, toCode) {
      const from = fromCode.toUpperCase();
      const to = toCode.toUpperCase();
      if (from === to) return amount;
      for (const t of tables) {
        const rate = rateIn(t, from, to);
        if (rate !== undefined) return amount * rate;
      }
      throw new Error(`Currency conversion rate not found: '${from}' => '${to}'`);
    },
  };
};
