import type { Rates } from './currency.js';
import { isObject } from '../core/json-object.js';

/** Largest rates document a source reads (Prebid's file with every currency is a few kB). */
export const MAX_RATES_DOCUMENT_BYTES = 1024 * 1024;

/**
 * Port: where the server's currency rates come from (`auction.currency.file` or `.url`).
 *
 * Contract: `read` answers the source's document as text (Prebid's currency file format, see
 * `parseRatesDocument`), or rejects with an `Error` saying why it cannot be had now (missing file,
 * network failure, a status other than 200, a document over the size limit, `signal` aborted).
 * It never parses: whether the text is a good document is the caller's question. Callers make one
 * call at a time; `read` must give up soon after `signal` aborts. `name` says where the source is,
 * for logs (never a secret: a URL's credentials are not part of it).
 */
export interface RatesSource {
  readonly name: string;
  read(signal: AbortSignal): Promise<string>;
}

/** A good rates document: the conversions with upper-case codes, frozen, and its dates as given. */
export interface RatesDocument {
  readonly rates: Rates;
  /** The day the rates were published (`dataAsOf`), when the document says. Informational. */
  readonly dataAsOf?: string;
  /** When the document was written (`generatedAt`), when it says. Informational. */
  readonly generatedAt?: string;
}

/** ISO 4217 codes are three letters; anything else cannot name a currency a bid is priced in. */
const CURRENCY_CODE = /^[A-Za-z]{3}$/;

/**
 * The conversions of a currency file as Prebid publishes it:
 * `{"dataAsOf": "...", "generatedAt": "...", "conversions": {"USD": {"EUR": 0.9, ...}, ...}}`,
 * a rate being how many units of the inner currency one unit of the outer one buys.
 * Throws an `Error` naming the first problem when the text is not such a document: every rate must
 * be a positive finite number under three-letter codes, and there must be at least one. One bad
 * entry refuses the whole document: it is a sign the file is broken, and a broken file must not
 * replace rates that were good.
 */
export const parseRatesDocument = (text: string): RatesDocument => {
  let json: unknown;
  try {
    json = JSON.parse(text);
  } catch (err) {
    throw new Error(`not JSON: ${(err as Error).message}`);
  }
  if (!isObject(json)) throw new Error('the document must be a JSON object');
  const { conversions, dataAsOf, generatedAt } = json;
  if (!isObject(conversions)) throw new Error('conversions must be an object of currency → {currency → rate}');
  const rates: Record<string, Record<string, number>> = {};
  let count = 0;
  for (const [from, quotes] of Object.entries(conversions)) {
    if (!CURRENCY_CODE.test(from)) throw new Error(`conversions: '${from}' is not a three-letter currency code`);
    if (!isObject(quotes)) throw new Error(`conversions.${from} must be an object of currency → rate`);
    const row = (rates[from.toUpperCase()] ??= {});
    for (const [to, rate] of Object.entries(quotes)) {
      if (!CURRENCY_CODE.test(to)) throw new Error(`conversions.${from}: '${to}' is not a three-letter currency code`);
      if (typeof rate !== 'number' || !Number.isFinite(rate) || rate <= 0) throw new Error(`conversions.${from}.${to} must be a positive number, got ${JSON.stringify(rate)}`);
      row[to.toUpperCase()] = rate;
      count++;
    }
  }
  if (count === 0) throw new Error('conversions holds no rate');
  for (const row of Object.values(rates)) Object.freeze(row);
  return {
    rates: Object.freeze(rates),
    ...(typeof dataAsOf === 'string' ? { dataAsOf } : {}),
    ...(typeof generatedAt === 'string' ? { generatedAt } : {}),
  };
};

/**
 * Whether rates loaded at `loadedAtMs` are too old to use at `nowMs`. Age counts from the last
 * good load, as Prebid Server counts it, not from the document's `dataAsOf`: the published file
 * lags by days over weekends and holidays (no reference rates are set then) while still being the
 * newest there is. `staleAfterMs` 0 means rates never go stale.
 */
export const isStale = (loadedAtMs: number, nowMs: number, staleAfterMs: number): boolean => staleAfterMs > 0 && nowMs - loadedAtMs > staleAfterMs;
