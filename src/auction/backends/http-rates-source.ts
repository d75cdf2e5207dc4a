import { fetch } from 'undici';
import type { RatesSource } from '../currency-rates.js';
import { MAX_RATES_DOCUMENT_BYTES } from './file-rates-source.js';

/** The URL as logs may show it: user and password left out. */
const loggableUrl = (url: string): string => {
  const u = new URL(url);
  u.username = '';
  u.password = '';
  return u.toString();
};

/**
 * The rates document at a URL (`auction.currency.url`, e.g. Prebid's
 * `https://cdn.jsdelivr.net/gh/prebid/currency-file@1/latest.json`): a GET that follows redirects,
 * as Prebid Server's client does. Any status but 200, or a body over `MAX_RATES_DOCUMENT_BYTES`
 * (read no further than that), is a failed read.
 */
export const createHttpRatesSource = (url: string): RatesSource => ({
  name: loggableUrl(url),
  read: async (signal) => {
    const res = await fetch(url, { headers: { accept: 'application/json' }, signal });
    if (res.status !== 200 || res.body === null) {
      await res.body?.cancel();
      throw new Error(`GET ${loggableUrl(url)} answered ${res.status}`);
    }
    const chunks: Uint8Array[] = [];
    let size = 0;
    for await (const chunk of res.body as AsyncIterable<Uint8Array>) {
      size += chunk.byteLength;
      if (size > MAX_RATES_DOCUMENT_BYTES) {
        // Leaving the loop early cancels the stream: the rest is never downloaded.
        throw new Error(`GET ${loggableUrl(url)} answered more than ${MAX_RATES_DOCUMENT_BYTES} bytes`);
      }
      chunks.push(chunk);
    }
    return Buffer.concat(chunks, size).toString('utf8');
  },
});
