import { fetch } from 'undici';
import { redactUrlCredentials } from './url-credentials.js';

/**
 * The text of a JSON document served at `url`, read no further than `maxBytes`: a GET asking for
 * JSON that follows redirects (as Prebid Server's client does). Rejects with an `Error` for any
 * status but 200, for a body over `maxBytes` (the rest is never downloaded, so a runaway or hostile
 * server cannot fill memory) and when `signal` aborts. Error messages show the URL without its
 * password, so they can be logged. The body is decoded as UTF-8; it is not parsed.
 */
export const fetchBoundedText = async (url: string, opts: { readonly maxBytes: number; readonly signal: AbortSignal }): Promise<string> => {
  const res = await fetch(url, { headers: { accept: 'application/json' }, signal: opts.signal });
  if (res.status !== 200 || res.body === null) {
    await res.body?.cancel();
    throw new Error(`GET ${redactUrlCredentials(url)} answered ${res.status}`);
  }
  const chunks: Uint8Array[] = [];
  let size = 0;
  for await (const chunk of res.body as AsyncIterable<Uint8Array>) {
    size += chunk.byteLength;
    if (size > opts.maxBytes) {
      // Leaving the loop early cancels the stream: the rest is never downloaded.
      throw new Error(`GET ${redactUrlCredentials(url)} answered more than ${opts.maxBytes} bytes`);
    }
    chunks.push(chunk);
  }
  return Buffer.concat(chunks, size).toString('utf8');
};
