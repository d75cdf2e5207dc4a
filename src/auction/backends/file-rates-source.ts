import { readFile, stat } from 'node:fs/promises';
import { MAX_RATES_DOCUMENT_BYTES } from '../currency-rates.js';
import type { RatesSource } from '../currency-rates.js';

/**
 * The rates document in a file (`auction.currency.file`), read anew on every call so that a job
 * rewriting it (say, a daily download) is picked up. A missing, unreadable or oversized file is a
 * failed read.
 */
export const createFileRatesSource = (path: string): RatesSource => ({
  name: path,
  read: async (signal) => {
    const { size } = await stat(path);
    if (size > MAX_RATES_DOCUMENT_BYTES) throw new Error(`${path} is larger than ${MAX_RATES_DOCUMENT_BYTES} bytes`);
    return readFile(path, { encoding: 'utf8', signal });
  },
});
