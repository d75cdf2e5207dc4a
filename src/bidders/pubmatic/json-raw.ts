/**
 * Reads a member of a JSON object as the text it was written in, without re-serialising it: the
 * native markup PubMatic wraps in `{"native": …}` must reach the page byte for byte (escapes such
 * as `\/` kept), as Prebid Server's jsonparser hands it on.
 */

const isSpace = (c: string | undefined): boolean => c === ' ' || c === '\t' || c === '\n' || c === '\r';

/** The index just past the string token opening at `i` (a `"`). */
const skipString = (text: string, i: number): number => {
  let j = i + 1;
  while (j < text.length) {
    const c = text[j];
    if (c === '\\') j += 2;
    else if (c === '"') return j + 1;
    else j++;
  }
  return text.length;
};

/** The index just past the value opening at `i`. */
const skipValue = (text: string, i: number): number => {
  const c = text[i];
  if (c === '"') return skipString(text, i);
  if (c === '{' || c === '[') {
    let depth = 0;
    let j = i;
    while (j < text.length) {
      const d = text[j];
      if (d === '"') {
        j = skipString(text, j);
        continue;
      }
      if (d === '{' || d === '[') depth++;
      else if (d === '}' || d === ']') {
        depth--;
        if (depth === 0) return j + 1;
      }
      j++;
    }
    return text.length;
  }
  let j = i;
  while (j < text.length && !isSpace(text[j]) && text[j] !== ',' && text[j] !== '}' && text[j] !== ']') j++;
  return j;
};

const skipSpaces = (text: string, i: number): number => {
  let j = i;
  while (isSpace(text[j])) j++;
  return j;
};

/**
 * The raw text of the first member named `key` of the JSON object `text`; for a string member its
 * content between the quotes, escapes as written. `undefined` when there is no such member or
 * `text` is not an object. `text` must be valid JSON (parse it first): this only scans.
 */
export const rawMember = (text: string, key: string): string | undefined => {
  let i = skipSpaces(text, 0);
  if (text[i] !== '{') return undefined;
  i = skipSpaces(text, i + 1);
  while (i < text.length && text[i] === '"') {
    const keyEnd = skipString(text, i);
    const name = JSON.parse(text.slice(i, keyEnd)) as string;
    i = skipSpaces(text, keyEnd);
    if (text[i] !== ':') return undefined;
    const start = skipSpaces(text, i + 1);
    const end = skipValue(text, start);
    if (name === key) return text[start] === '"' ? text.slice(start + 1, end - 1) : text.slice(start, end);
    i = skipSpaces(text, end);
    if (text[i] !== ',') return undefined;
    i = skipSpaces(text, i + 1);
  }
  return undefined;
};
