/** The two kinds of value `/cache` keeps. */
export type ValueType = 'xml' | 'json';

export const CONTENT_TYPES: Readonly<Record<ValueType, string>> = {
  xml: 'application/xml',
  json: 'application/json',
};

// Prebid Cache (Go) prefixes each stored value with its type; doing the same lets an openbid and a
// Prebid Cache read each other's entries from one Redis (with its compression set to none).
const PREFIX_XML = Buffer.from('xml');
const PREFIX_JSON = Buffer.from('json');

/** The stored form of a value: type prefix + UTF-8 text. */
export const encodeStoredValue = (type: ValueType, text: string): Buffer => prefixedText(type === 'xml' ? PREFIX_XML : PREFIX_JSON, text);

/**
 * `prefix` followed by the UTF-8 bytes of `text`, in one exactly-sized buffer. It may be a slice
 * of Node's shared pool: stores copy what they keep (memory) or only send it (Redis), so the
 * buffer lives only until the write returns.
 */
export const prefixedText = (prefix: Buffer, text: string): Buffer => {
  const out = Buffer.allocUnsafe(prefix.length + Buffer.byteLength(text, 'utf8'));
  prefix.copy(out, 0);
  out.write(text, prefix.length, 'utf8');
  return out;
};

/** Splits a stored buffer back into its type and body (a view, no copy); undefined if neither prefix. */
export const decodeStoredValue = (stored: Buffer): { type: ValueType; body: Buffer } | undefined => {
  if (startsWith(stored, PREFIX_XML)) return { type: 'xml', body: stored.subarray(PREFIX_XML.length) };
  if (startsWith(stored, PREFIX_JSON)) return { type: 'json', body: stored.subarray(PREFIX_JSON.length) };
  return undefined;
};

// Byte by byte: the prefixes are 3 and 4 bytes, and a native compare costs more than the loop.
const startsWith = (buf: Buffer, prefix: Buffer): boolean => {
  if (buf.length < prefix.length) return false;
  for (let i = 0; i < prefix.length; i++) if (buf[i] !== prefix[i]) return false;
  return true;
};
