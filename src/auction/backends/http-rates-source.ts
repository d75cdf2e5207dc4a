import { fetchBoundedText } from '../../core/bounded-fetch.js';
import { redactUrlCredentials } from '../../core/url-credentials.js';
import { MAX_RATES_DOCUMENT_BYTES } from '../currency-rates.js';
import type { RatesSource } from '../currency-rates.js';

/**
 * The rates document at a URL (`auction.currency.url`, e.g. Prebid's
 * `https://cdn.jsdelivr.net/gh/prebid/currency-file@1/latest.json`): a GET that follows redirects,
 * as Prebid Server's client does. Any status but 200, or a body over `MAX_RATES_DOCUMENT_BYTES`
 * (read no further than that), is a failed read.
 */
export const createHttpRatesSource = (url: string): RatesSource => ({
  name: redactUrlCredentials(url),
  read: (signal) => fetchBoundedText(url, { maxBytes: MAX_RATES_DOCUMENT_BYTES, signal }),
});
