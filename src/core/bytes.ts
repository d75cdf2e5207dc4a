declare const byteStringBrand: unique symbol;

/**
 * Bytes held in a JavaScript string, one character per byte (Node's `latin1` encoding). It is not
 * text: reading its characters as text garbles every byte above 0x7F.
 *
 * Why have it: the memory store copies a value out of its ring into such a string cheaper than
 * into a Buffer (one allocation on the JS heap, no external memory to track), and Node writes a
 * string body in the same socket write as the response head (README, "Performance").
 */
export type ByteString = string & { readonly [byteStringBrand]: true };

/** Bytes as a store hands them back: a Buffer, or a {@link ByteString}. Both count one unit per byte. */
export type Bytes = Buffer | ByteString;

/** The bytes `buf[start, end)` as a {@link ByteString} (a copy). */
export const byteStringOf = (buf: Buffer, start: number, end: number): ByteString => buf.toString('latin1', start, end) as ByteString;

/** The same bytes as a Buffer: the Buffer itself, or a copy of a {@link ByteString}. */
export const bytesToBuffer = (bytes: Bytes): Buffer => (typeof bytes === 'string' ? Buffer.from(bytes, 'latin1') : bytes);

/** Whether `bytes` starts with the bytes of the ASCII string `prefix`. */
export const startsWithAscii = (bytes: Bytes, prefix: string): boolean => {
  if (typeof bytes === 'string') return bytes.startsWith(prefix);
  if (bytes.length < prefix.length) return false;
  // Byte by byte: the prefixes are a few bytes, and a native compare costs more than the loop.
  for (let i = 0; i < prefix.length; i++) if (bytes[i] !== prefix.charCodeAt(i)) return false;
  return true;
};

/** The bytes from `start` on, without copying a Buffer (a view) or re-encoding a string. */
export const bytesFrom = <B extends Bytes>(bytes: B, start: number): B =>
  (typeof bytes === 'string' ? bytes.slice(start) : bytes.subarray(start)) as B;
