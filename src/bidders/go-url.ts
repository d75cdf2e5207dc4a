/**
 * URLs as Prebid Server's Go adapters rewrite them with `net/url`: adapters that add a parameter to
 * an endpoint (AppNexus's `member_id`, Media.net's `src`) must produce the same bytes.
 */

// Bytes Go's url.QueryEscape leaves as they are.
const UNRESERVED = /^[A-Za-z0-9\-_.~]$/;

/** `url.QueryUnescape` as bytes: `+` is a space, `%XX` a byte; a broken escape gives `undefined`. */
const queryUnescape = (text: string): Buffer | undefined => {
  const bytes: number[] = [];
  const raw = Buffer.from(text, 'utf8');
  for (let i = 0; i < raw.length; i++) {
    const c = raw[i]!;
    if (c === 0x2b) bytes.push(0x20);
    else if (c !== 0x25) bytes.push(c);
    else {
      const hex = raw.subarray(i + 1, i + 3).toString('latin1');
      if (!/^[0-9A-Fa-f]{2}$/.test(hex)) return undefined;
      bytes.push(parseInt(hex, 16));
      i += 2;
    }
  }
  return Buffer.from(bytes);
};

/** `url.QueryEscape` of bytes: space as `+`, everything but `A-Za-z0-9-_.~` as `%XX`. */
const escapeBytes = (bytes: Buffer): string => {
  let out = '';
  for (const byte of bytes) {
    const ch = String.fromCharCode(byte);
    out += UNRESERVED.test(ch) ? ch : byte === 0x20 ? '+' : `%${byte.toString(16).toUpperCase().padStart(2, '0')}`;
  }
  return out;
};

/**
 * `endpoint` with `name=value` in its query, the query rewritten as Go's `url.Values.Encode`
 * writes it: pairs sorted by key (bytes), repeated keys in their order, pairs Go cannot parse (a
 * `;` in them, a broken `%` escape) dropped. `set` replaces any `name` already there (Go's
 * `Values.Set`), `add` keeps them (`Values.Add`). Keys and values are kept as bytes, so an escape
 * of bytes that are not UTF-8 comes back the same.
 */
export const withGoQueryParam = (endpoint: string, name: string, value: string, mode: 'set' | 'add'): string => {
  const hash = endpoint.indexOf('#');
  const beforeFragment = hash === -1 ? endpoint : endpoint.slice(0, hash);
  const fragment = hash === -1 ? '' : endpoint.slice(hash);
  const mark = beforeFragment.indexOf('?');
  const base = mark === -1 ? beforeFragment : beforeFragment.slice(0, mark);
  const query = mark === -1 ? '' : beforeFragment.slice(mark + 1);

  const pairs: [Buffer, Buffer][] = [];
  for (const part of query.split('&')) {
    if (part === '' || part.includes(';')) continue;
    const eq = part.indexOf('=');
    const key = queryUnescape(eq === -1 ? part : part.slice(0, eq));
    const val = queryUnescape(eq === -1 ? '' : part.slice(eq + 1));
    if (key === undefined || val === undefined) continue;
    pairs.push([key, val]);
  }
  const nameBytes = Buffer.from(name, 'utf8');
  const kept = mode === 'set' ? pairs.filter(([k]) => !k.equals(nameBytes)) : pairs;
  // Node writes a lone surrogate as U+FFFD, which is what Go's JSON decoding made of it.
  kept.push([nameBytes, Buffer.from(value, 'utf8')]);
  // A stable sort keeps repeated keys in the order they came.
  kept.sort(([a], [b]) => Buffer.compare(a, b));
  return `${base}?${kept.map(([k, v]) => `${escapeBytes(k)}=${escapeBytes(v)}`).join('&')}${fragment}`;
};
