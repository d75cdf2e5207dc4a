/**
 * Media.net's endpoint as Prebid Server builds it: the host's extra info (a URL naming this
 * server to Media.net) added as the `src` query parameter. The query is re-encoded the way Go's
 * `url.Values` does it: pairs that do not decode (a bad `%` escape, a `;`) are dropped, keys
 * sorted, each key and value query-escaped (a space as `+`). The rest of the URL is kept as is.
 */

const HEX = /^[0-9a-fA-F]{2}$/;

/** Go's `url.QueryUnescape` to bytes: `+` is a space; `undefined` on a bad `%` escape. */
const queryUnescape = (s: string): Buffer | undefined => {
  const bytes: number[] = [];
  const raw = Buffer.from(s, 'utf8');
  for (let i = 0; i < raw.length; i++) {
    const c = raw[i]!;
    if (c === 0x25) {
      const hex = raw.subarray(i + 1, i + 3).toString('latin1');
      if (!HEX.test(hex)) return undefined;
      bytes.push(parseInt(hex, 16));
      i += 2;
    } else bytes.push(c === 0x2b ? 0x20 : c);
  }
  return Buffer.from(bytes);
};

// Bytes Go's QueryEscape leaves alone: letters, digits and `-_.~`.
const isUnreserved = (c: number): boolean =>
  (c >= 0x30 && c <= 0x39) || (c >= 0x41 && c <= 0x5a) || (c >= 0x61 && c <= 0x7a) || c === 0x2d || c === 0x5f || c === 0x2e || c === 0x7e;

/** Go's `url.QueryEscape` of bytes. */
const queryEscape = (bytes: Buffer): string => {
  let out = '';
  for (const c of bytes) {
    if (isUnreserved(c)) out += String.fromCharCode(c);
    else if (c === 0x20) out += '+';
    else out += `%${c.toString(16).toUpperCase().padStart(2, '0')}`;
  }
  return out;
};

/** Compares byte strings as Go's `sort.Strings` orders keys. */
const byteCompare = (a: Buffer, b: Buffer): number => Buffer.compare(a, b);

/** `endpoint` with `src=<extraInfo>` in its query; `endpoint` unchanged when `extraInfo` is empty. */
export const medianetEndpoint = (endpoint: string, extraInfo: string): string => {
  if (extraInfo === '') return endpoint;
  const hash = endpoint.indexOf('#');
  const beforeFragment = hash === -1 ? endpoint : endpoint.slice(0, hash);
  const fragment = hash === -1 ? '' : endpoint.slice(hash);
  const question = beforeFragment.indexOf('?');
  const base = question === -1 ? beforeFragment : beforeFragment.slice(0, question);
  const query = question === -1 ? '' : beforeFragment.slice(question + 1);

  // Insertion order per key is kept; keys are sorted when written. A Map: keys are request-free
  // config text, but `__proto__` is still a valid one.
  const values = new Map<string, { key: Buffer; values: Buffer[] }>();
  const add = (key: Buffer, value: Buffer): void => {
    const id = key.toString('latin1');
    const entry = values.get(id) ?? { key, values: [] };
    entry.values.push(value);
    values.set(id, entry);
  };
  for (const pair of query.split('&')) {
    if (pair === '' || pair.includes(';')) continue;
    const eq = pair.indexOf('=');
    const key = queryUnescape(eq === -1 ? pair : pair.slice(0, eq));
    const value = queryUnescape(eq === -1 ? '' : pair.slice(eq + 1));
    if (key === undefined || value === undefined) continue;
    add(key, value);
  }
  add(Buffer.from('src'), Buffer.from(extraInfo, 'utf8'));

  const encoded = [...values.values()]
    .sort((a, b) => byteCompare(a.key, b.key))
    .flatMap(({ key, values: vs }) => vs.map((v) => `${queryEscape(key)}=${queryEscape(v)}`))
    .join('&');
  return `${base}?${encoded}${fragment}`;
};
