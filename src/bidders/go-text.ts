/**
 * Text rules of Prebid Server's Go runtime that decide what the Go-modelled adapters (appnexus,
 * openx, pubmatic) send and read: which spaces are
 * trimmed, which numbers parse, how a number is printed into a targeting string. Kept apart so
 * the adapter reads as PubMatic's rules and these stay testable on their own.
 */

// Go's unicode.IsSpace set. JavaScript's trim() differs: it also trims U+FEFF and keeps U+0085.
const GO_SPACE = '[\\t\\n\\v\\f\\r \\u0085\\u00a0\\u1680\\u2000-\\u200a\\u2028\\u2029\\u202f\\u205f\\u3000]';
const LEADING = new RegExp(`^${GO_SPACE}+`);
const TRAILING = new RegExp(`${GO_SPACE}+$`);

/** `strings.TrimSpace`. */
export const goTrimSpace = (s: string): string => s.replace(LEADING, '').replace(TRAILING, '');

const INT64_MIN = -(2n ** 63n);
const INT64_MAX = 2n ** 63n - 1n;

/** Whether an integer fits Go's int64. */
export const fitsInt64 = (n: bigint): boolean => n >= INT64_MIN && n <= INT64_MAX;

/** `strconv.Atoi` on a 64-bit platform: an optional sign and decimal digits, in int64 range. */
export const goAtoi = (s: string): number | undefined => {
  if (!/^[+-]?[0-9]+$/.test(s)) return undefined;
  const n = BigInt(s);
  return fitsInt64(n) ? Number(n) : undefined;
};

/**
 * `strconv.ParseFloat(s, 64)` for decimal text, keeping only finite results. Go also accepts
 * `inf`, `nan` and hexadecimal floats; a floor of infinity or NaN makes Prebid Server fail the
 * whole request when it serialises it, so here such a value is simply not a floor.
 */
export const goParseFloat = (s: string): number | undefined => {
  if (!/^[+-]?([0-9]+(\.[0-9]*)?|\.[0-9]+)([eE][+-]?[0-9]+)?$/.test(s)) return undefined;
  const n = Number(s);
  return Number.isFinite(n) ? n : undefined;
};

/**
 * A float64 as Go's `fmt` prints it with `%v`: the shortest digits that read back the same, in
 * exponent form below 1e-4 and from 1e6 up (`1e+06`, `2.5e-05`), plain otherwise.
 */
export const goFormatFloat = (n: number): string => {
  if (Number.isNaN(n)) return 'NaN';
  if (!Number.isFinite(n)) return n > 0 ? '+Inf' : '-Inf';
  if (n === 0) return Object.is(n, -0) ? '-0' : '0';
  // toExponential() without an argument gives the shortest round-trip digits, as Go's shortest mode does.
  const [mantissa = '', expText = '0'] = n.toExponential().split('e');
  const exp = Number(expText);
  if (exp < -4 || exp >= 6) return `${mantissa}e${exp < 0 ? '-' : '+'}${String(Math.abs(exp)).padStart(2, '0')}`;
  // In this range JavaScript prints plain digits, the same shortest ones.
  return String(n);
};

/**
 * Orders keys as Go writes a map's members: by their UTF-8 bytes, which is code point order
 * (JavaScript's `<` compares UTF-16 units, which differs above U+FFFF). No allocation.
 */
export const goKeyCompare = (a: string, b: string): number => {
  const n = Math.min(a.length, b.length);
  for (let i = 0; i < n; ) {
    const ca = a.codePointAt(i)!;
    const cb = b.codePointAt(i)!;
    if (ca !== cb) return ca - cb;
    i += ca > 0xffff ? 2 : 1;
  }
  return a.length - b.length;
};
