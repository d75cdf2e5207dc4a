const HEX = /^[0-9a-fA-F]{2}$/;
const utf8 = new TextDecoder('utf-8');

/**
 * Go's `url.QueryUnescape`: `+` is a space and `%XX` the byte XX; a `%` not followed by two hex
 * digits makes the whole text unreadable (`undefined`). The bytes are read as UTF-8, invalid
 * sequences becoming U+FFFD as Go's JSON encoder writes them.
 */
export const goQueryUnescape = (s: string): string | undefined => {
  if (!s.includes('%') && !s.includes('+')) return s;
  const bytes: number[] = [];
  const encoder = new TextEncoder();
  for (let i = 0; i < s.length; ) {
    const c = s[i]!;
    if (c === '%') {
      const hex = s.slice(i + 1, i + 3);
      if (!HEX.test(hex)) return undefined;
      bytes.push(parseInt(hex, 16));
      i += 3;
    } else if (c === '+') {
      bytes.push(0x20);
      i += 1;
    } else {
      // One code point (a surrogate pair included) as its UTF-8 bytes.
      const cp = s.codePointAt(i)!;
      const width = cp > 0xffff ? 2 : 1;
      for (const b of encoder.encode(s.slice(i, i + width))) bytes.push(b);
      i += width;
    }
  }
  return utf8.decode(new Uint8Array(bytes));
};
