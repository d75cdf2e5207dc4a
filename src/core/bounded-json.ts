/**
 * The deepest nesting of JSON objects and arrays openbid accepts from a client or a bidder.
 * Real payloads stay far below it (an OpenRTB request with first-party data nests ~10 levels);
 * code that walks a parsed value recursively (merging stored requests, adapters, JSON.stringify
 * of an answer) overflows the stack some thousands of levels down, which would turn a hostile
 * body into a 500 or a failed bidder.
 */
export const MAX_JSON_DEPTH = 100;

/** JSON text that is valid but nests deeper than the limit. */
export class JsonTooDeepError extends Error {
  constructor(readonly limit: number) {
    super(`JSON objects and arrays nested more than ${limit} levels deep`);
    this.name = 'JsonTooDeepError';
  }
}

const QUOTE = 0x22;
const BACKSLASH = 0x5c;
const OPEN_BRACE = 0x7b;
const OPEN_BRACKET = 0x5b;
const CLOSE_BRACE = 0x7d;
const CLOSE_BRACKET = 0x5d;

const OPENING_BRACKETS = ['{', '['] as const;

/**
 * Whether the text holds at most `limit` opening brackets (`{` and `[`, in strings too), found
 * with `indexOf`. Such a text cannot nest deeper than `limit`, and most texts openbid reads are
 * such: a bidder's answer of 20 bids opens ~25. This settles them at a fraction of the cost of
 * the scan below, which took a third as long as `JSON.parse` of the same answer.
 */
const opensAtMost = (text: string, limit: number): boolean => {
  let opened = 0;
  for (const bracket of OPENING_BRACKETS) {
    for (let i = text.indexOf(bracket); i !== -1; i = text.indexOf(bracket, i + 1)) if (++opened > limit) return false;
  }
  return true;
};

/**
 * Whether JSON text nests objects and arrays deeper than `limit`: unless it has too few opening
 * brackets to, one pass over the text, strings skipped with `indexOf` (a quote preceded by an odd
 * number of backslashes is escaped). Meant for text `JSON.parse` accepts; on other text the
 * answer is meaningless but the scan still ends.
 */
export const jsonDeeperThan = (text: string, limit: number = MAX_JSON_DEPTH): boolean => {
  if (opensAtMost(text, limit)) return false;
  let depth = 0;
  const n = text.length;
  for (let i = 0; i < n; i++) {
    const c = text.charCodeAt(i);
    if (c === QUOTE) {
      let end = text.indexOf('"', i + 1);
      while (end !== -1 && escaped(text, end)) end = text.indexOf('"', end + 1);
      if (end === -1) return false;
      i = end;
    } else if (c === OPEN_BRACE || c === OPEN_BRACKET) {
      if (++depth > limit) return true;
    } else if (c === CLOSE_BRACE || c === CLOSE_BRACKET) {
      depth--;
    }
  }
  return false;
};

/** A quote at `at` is escaped when an odd number of backslashes precede it. */
const escaped = (text: string, at: number): boolean => {
  let backslashes = 0;
  for (let j = at - 1; j >= 0 && text.charCodeAt(j) === BACKSLASH; j--) backslashes++;
  return backslashes % 2 === 1;
};

/**
 * `JSON.parse` for text from outside: a `SyntaxError` for text that is not JSON (as `JSON.parse`),
 * a {@link JsonTooDeepError} for JSON nested deeper than `limit`.
 */
export const parseBoundedJson = (text: string, limit: number = MAX_JSON_DEPTH): unknown => {
  const value: unknown = JSON.parse(text);
  // Scalars and flat texts cannot be deep: skip the scan when the text has too few brackets to matter.
  if (typeof value === 'object' && value !== null && text.length > limit * 2 && jsonDeeperThan(text, limit)) throw new JsonTooDeepError(limit);
  return value;
};

/**
 * What is wrong with JSON text `parseBoundedJson` or `JSON.parse` refused, in openbid's words: the
 * depth limit, else `not valid JSON`. Never the parser's own message, which quotes the text and
 * differs between Node versions (and is an exception's text, which no answer carries).
 */
export const jsonProblem = (err: unknown): string => (err instanceof JsonTooDeepError ? err.message : 'not valid JSON');
