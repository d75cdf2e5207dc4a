/**
 * Finds the exact source text of `puts[i].value` in a request body, so that JSON values are
 * stored as posted (whitespace, number spelling and key order kept) rather than re-serialised.
 *
 * Precondition: `text` has already been accepted by `JSON.parse`; this scanner relies on that and
 * does not validate. Like `JSON.parse`, the last of duplicate keys wins.
 *
 * Returns one entry per element of the winning `puts` array: the raw value text, or `undefined`
 * when that element is not an object or has no `value`.
 */
export const rawPutValues = (text: string): (string | undefined)[] => {
  const scanner = new Scanner(text);
  let result: (string | undefined)[] = [];
  scanner.skipWhitespace();
  if (scanner.peek() !== OPEN_OBJECT) return result;
  scanner.forEachMember((key) => {
    if (key === 'puts' && scanner.peek() === OPEN_ARRAY) result = scanPuts(scanner);
    else scanner.skipValue();
  });
  return result;
};

const scanPuts = (scanner: Scanner): (string | undefined)[] => {
  const values: (string | undefined)[] = [];
  scanner.forEachElement(() => {
    let raw: string | undefined;
    if (scanner.peek() === OPEN_OBJECT) {
      scanner.forEachMember((key) => {
        const start = scanner.pos;
        scanner.skipValue();
        if (key === 'value') raw = scanner.slice(start);
      });
    } else {
      scanner.skipValue();
    }
    values.push(raw);
  });
  return values;
};

const OPEN_OBJECT = 0x7b; // {
const CLOSE_OBJECT = 0x7d; // }
const OPEN_ARRAY = 0x5b; // [
const CLOSE_ARRAY = 0x5d; // ]
const QUOTE = 0x22; // "
const BACKSLASH = 0x5c;
const COMMA = 0x2c;

const isWhitespace = (c: number): boolean => c === 0x20 || c === 0x0a || c === 0x0d || c === 0x09;

class Scanner {
  pos = 0;

  constructor(private readonly text: string) {}

  peek(): number {
    return this.text.charCodeAt(this.pos);
  }

  slice(start: number): string {
    return this.text.slice(start, this.pos);
  }

  skipWhitespace(): void {
    while (this.pos < this.text.length && isWhitespace(this.text.charCodeAt(this.pos))) this.pos++;
  }

  /** At `{`: calls `onMember(key)` with the position on each member's value, which it must consume. */
  forEachMember(onMember: (key: string) => void): void {
    this.pos++; // {
    this.skipWhitespace();
    if (this.peek() === CLOSE_OBJECT) {
      this.pos++;
      return;
    }
    for (;;) {
      this.skipWhitespace();
      const keyStart = this.pos;
      this.skipString();
      const rawKey = this.text.slice(keyStart, this.pos);
      const key = rawKey.includes('\\') ? (JSON.parse(rawKey) as string) : rawKey.slice(1, -1);
      this.skipWhitespace();
      this.pos++; // :
      this.skipWhitespace();
      onMember(key);
      this.skipWhitespace();
      if (this.text.charCodeAt(this.pos++) !== COMMA) return; // }
    }
  }

  /** At `[`: calls `onElement()` with the position on each element, which it must consume. */
  forEachElement(onElement: () => void): void {
    this.pos++; // [
    this.skipWhitespace();
    if (this.peek() === CLOSE_ARRAY) {
      this.pos++;
      return;
    }
    for (;;) {
      this.skipWhitespace();
      onElement();
      this.skipWhitespace();
      if (this.text.charCodeAt(this.pos++) !== COMMA) return; // ]
    }
  }

  skipString(): void {
    this.pos++; // opening quote
    for (;;) {
      const c = this.text.charCodeAt(this.pos++);
      if (c === BACKSLASH) this.pos++;
      else if (c === QUOTE || Number.isNaN(c)) return;
    }
  }

  skipValue(): void {
    const c = this.peek();
    if (c === QUOTE) return this.skipString();
    if (c === OPEN_OBJECT || c === OPEN_ARRAY) return this.skipNested();
    // A literal or number ends at the next structural character or whitespace.
    while (this.pos < this.text.length) {
      const d = this.text.charCodeAt(this.pos);
      if (d === COMMA || d === CLOSE_OBJECT || d === CLOSE_ARRAY || isWhitespace(d)) return;
      this.pos++;
    }
  }

  private skipNested(): void {
    let depth = 0;
    while (this.pos < this.text.length) {
      const c = this.text.charCodeAt(this.pos);
      if (c === QUOTE) {
        this.skipString();
        continue;
      }
      this.pos++;
      if (c === OPEN_OBJECT || c === OPEN_ARRAY) depth++;
      else if (c === CLOSE_OBJECT || c === CLOSE_ARRAY) {
        depth--;
        if (depth === 0) return;
      }
    }
  }
}

