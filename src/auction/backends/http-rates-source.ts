import { fetch } from 'undici';
import { redactUrlCredentials } from '../../core/url-credentials.js';
import type { RatesSource } from '../currency-rates.js';
import { MAX_RATES_DOCUMENT_BYTES } from './file-rates-source.js';

/**
 * The rates document at a URL (`auction.currency.url`, e.g. Prebid's
 * `https://cdn.jsdelivr.net/gh/prebid/currency-file@1/latest.json`): a GET that follows redirects,
 * as Prebid Server's client does. Any status but 200, or a body over `MAX_RATES_DOCUMENT_BYTES`
 * (read no further than that), is a failed read.
 */
export const createHttpRatesSource = (url: string): RatesSource => {
  const name = redactUrlCredentials(url);
  return {
    name,
    read: async (signal) => {
      const res = await fetch(url, { headers: { accept: 'application/json' }, signal });
      if (res.status !== 200 || res.body === null) {
        await res.body?.cancel();
        throw new Error(`GET ${name} answered ${res.status}`);
      }
      const chunks: Uint8Array[] = [];
      let size = 0;
      for await (const chunk of res.body as AsyncIterable<Uint8Array>) {
        size += chunk.byteLength;
        if (size > MAX_RATES_DOCUMENT_BYTES) {
          // Leaving the loop early cancels the stream: the rest is never downloaded.
          throw new Error(`GET ${name} answered more than ${MAX_RATES_DOCUMENT_BYTES} bytes`);
        }
        chunks.push(chunk);
      }
      return Buffer.concat(chunks, size).toString('utf8');
    },
  };
};
