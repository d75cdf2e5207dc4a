/** Base64url's 64 characters, each standing for 6 bits, most significant first (TCF and GPP). */
const ALPHABET = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_';
const SEXTET = new Int8Array(128).fill(-1);
for (let i = 0; i < ALPHABET.length; i++) SEXTET[ALPHABET.charCodeAt(i)] = i;

/**
 * Reads the bits of a base64url string in order, as TCF v2 and GPP pack their fields: unsigned
 * big-endian integers of a fixed width, and GPP's Fibonacci integers. Every read costs its width
 * in steps, so reading a string through costs its length, whatever the fields say. A read past the
 * end is refused by `has`, which callers check before each field or entry.
 */
export class BitReader {
  /** Bits read so far. */
  position = 0;
  /** Bits in the string (6 per character). */
  readonly length: number;
  private readonly sextets: Uint8Array;

  private constructor(sextets: Uint8Array) {
    this.sextets = sextets;
    this.length = sextets.length * 6;
  }

  /** A reader over `text`, or `undefined` when a character is not base64url (padding `=` included). */
  static of(text: string): BitReader | undefined {
    const sextets = new Uint8Array(text.length);
    for (let i = 0; i < text.length; i++) {
      const code = text.charCodeAt(i);
      const value = code < 128 ? SEXTET[code]! : -1;
      if (value < 0) return undefined;
      sextets[i] = value;
    }
    return new BitReader(sextets);
  }

  /** At least `bits` bits are left to read. */
  has(bits: number): boolean {
    return this.position + bits <= this.length;
  }

  /** The next bit (false past the end; callers check `has` first). */
  bit(): boolean {
    const p = this.position++;
    if (p >= this.length) return false;
    return ((this.sextets[(p / 6) | 0]! >> (5 - (p % 6))) & 1) === 1;
  }

  /** The next `width` bits as an unsigned integer (width ≤ 48, exact as a double). */
  int(width: number): number {
    let value = 0;
    let left = width;
    // A character's bits at a time: a 16-bit id is three or four steps, not sixteen.
    while (left > 0) {
      const p = this.position;
      const offset = p % 6;
      const take = Math.min(left, 6 - offset);
      const sextet = p < this.length ? this.sextets[(p / 6) | 0]! : 0;
      value = value * (1 << take) + ((sextet >> (6 - offset - take)) & ((1 << take) - 1));
      this.position = p + take;
      left -= take;
    }
    return value;
  }

  /**
   * The next Fibonacci-coded integer (Zeckendorf bits, least significant first, closed by a second
   * consecutive 1), or `undefined` when the string ends first or the value passes `max`: the value
   * grows with every bit, so a bound keeps it small and exact.
   */
  fibonacci(max: number): number | undefined {
    let value = 0;
    let previousOne = false;
    let a = 1;
    let b = 2;
    while (this.has(1)) {
      const one = this.bit();
      if (one && previousOne) return value;
      if (one) value += a;
      if (value > max) return undefined;
      previousOne = one;
      [a, b] = [b, a + b];
    }
    return undefined;
  }
}
