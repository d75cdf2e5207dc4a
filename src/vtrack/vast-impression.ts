/** Result: the VAST text with the tag inserted, and how many <InLine>/<Wrapper> elements received it. */
export interface ImpressionInsertion {
  readonly vast: string;
  readonly inserted: number;
}

/** The tag added for an impression URL; the URL must not contain `]]>` (URL-encoded values never do). */
export const impressionTag = (url: string): string => `<Impression><![CDATA[${url}]]></Impression>`;

const isNameStart = (c: number): boolean => (c >= 65 && c <= 90) || (c >= 97 && c <= 122) || c === 95 || c === 58; // A-Z a-z _ :
const isNameEnd = (c: number): boolean => c === 32 || c === 9 || c === 10 || c === 13 || c === 47 || c === 62; // space \t \n \r / >
const lowerAscii = (c: number): number => (c >= 65 && c <= 90 ? c + 32 : c);

/** Whether two spans of `text` hold the same name, ASCII letters compared in any case. */
const sameName = (text: string, a: number, aEnd: number, b: number, bEnd: number): boolean => {
  if (aEnd - a !== bEnd - b) return false;
  for (let i = 0; i < aEnd - a; i++) if (lowerAscii(text.charCodeAt(a + i)) !== lowerAscii(text.charCodeAt(b + i))) return false;
  return true;
};

/** Whether the span `text[start, end)` is `lowerName`, in any case. */
const isName = (text: string, start: number, end: number, lowerName: string): boolean => {
  if (end - start !== lowerName.length) return false;
  for (let i = 0; i < lowerName.length; i++) if (lowerAscii(text.charCodeAt(start + i)) !== lowerName.charCodeAt(i)) return false;
  return true;
};

// What an open element is to the insertion: a container gets the tag, an Impression inside one
// moves where it goes.
const OTHER = 0;
const CONTAINER = 1;
const IMPRESSION = 2;

const kindOf = (text: string, start: number, end: number): number =>
  isName(text, start, end, 'inline') || isName(text, start, end, 'wrapper') ? CONTAINER : isName(text, start, end, 'impression') ? IMPRESSION : OTHER;

/** Index just past `terminator`, searched from `from`; -1 if it never comes. */
const skipPast = (text: string, terminator: string, from: number): number => {
  const at = text.indexOf(terminator, from);
  return at < 0 ? -1 : at + terminator.length;
};

/** Index just past the `>` that ends the markup started before `from`, skipping quoted values and `[...]` subsets; -1 if none. */
const endOfMarkup = (text: string, from: number): number => {
  let quote = 0;
  let brackets = 0;
  for (let i = from; i < text.length; i++) {
    const c = text.charCodeAt(i);
    if (quote !== 0) {
      if (c === quote) quote = 0;
    } else if (c === 34 || c === 39) quote = c;
    else if (c === 91) brackets++;
    else if (c === 93) brackets--;
    else if (c === 62 && brackets <= 0) return i + 1;
  }
  return -1;
};

/**
 * The open elements of the scan in progress, innermost last, up to its `depth`: where each name
 * lies in the text, its kind, and for containers where their last direct-child Impression ended
 * (-1 if none yet). Shared by every call (a scan runs to its end synchronously, and entries above
 * `depth` are stale and overwritten before they are read), so a scan allocates no stack. A scan
 * that nested deeper than `KEPT_DEPTH` (a hostile document) leaves fresh arrays behind.
 */
const emptyStack = () => ({ nameStarts: [0], nameEnds: [0], kinds: [0], lastImpressionEnds: [0] });
let openElements = emptyStack();
/** Deeper scans leave their stack to the garbage collector rather than keep it for good. */
const KEPT_DEPTH = 1024;

/**
 * Adds `<Impression><![CDATA[url]]></Impression>` to every `<InLine>` and `<Wrapper>` of a VAST
 * document, working on the text (no XML parser, nothing else changes): after the container's last
 * direct-child `<Impression>`, or, with none, just before the container's closing tag. Tag names
 * match in any case (ASCII letters) and with attributes; markup inside comments, CDATA sections,
 * processing instructions and declarations is not markup, and quoted attribute values are skipped.
 *
 * Every `<Ad>` gets the tag: in an ad pod each ad that plays is an impression of the bid, and in
 * a buffet only the ad that plays fires its tags. A container that is never closed (a truncated
 * document) is left alone; a document with no container comes back unchanged. The scan stops
 * quietly at the first construct that is not closed.
 *
 * The scan allocates nothing per tag (names are compared in place, open elements kept as
 * numbers): it runs on every `/vtrack` put, and garbage there is request throughput.
 */
export const insertImpression = (vast: string, impressionUrl: string): ImpressionInsertion => {
  const { nameStarts, nameEnds, kinds, lastImpressionEnds } = openElements;
  let depth = 0;
  let insertAt: number[] | undefined;
  const length = vast.length;

  let pos = 0;
  for (;;) {
    const lt = vast.indexOf('<', pos);
    if (lt < 0 || lt + 1 >= length) break;
    const next = vast.charCodeAt(lt + 1);
    if (next === 33 || next === 63) {
      // '<!' and '<?': comment, CDATA section, declaration or processing instruction.
      if (next === 63) pos = skipPast(vast, '?>', lt + 2);
      else if (vast.startsWith('<!--', lt)) pos = skipPast(vast, '-->', lt + 4);
      else if (vast.startsWith('<![CDATA[', lt)) pos = skipPast(vast, ']]>', lt + 9);
      else pos = endOfMarkup(vast, lt + 2);
      if (pos < 0) break;
      continue;
    }
    const closing = next === 47; // '/'
    const nameStart = lt + (closing ? 2 : 1);
    if (!isNameStart(vast.charCodeAt(nameStart))) {
      pos = lt + 1; // a stray '<' in text
      continue;
    }
    let nameEnd = nameStart;
    while (nameEnd < length && !isNameEnd(vast.charCodeAt(nameEnd))) nameEnd++;
    const end = endOfMarkup(vast, nameEnd);
    if (end < 0) break;
    pos = end;

    if (!closing) {
      if (vast.charCodeAt(end - 2) !== 47) {
        nameStarts[depth] = nameStart;
        nameEnds[depth] = nameEnd;
        kinds[depth] = kindOf(vast, nameStart, nameEnd);
        lastImpressionEnds[depth] = -1;
        depth++;
      } else if (depth > 0 && kinds[depth - 1] === CONTAINER && kindOf(vast, nameStart, nameEnd) === IMPRESSION) {
        lastImpressionEnds[depth - 1] = end; // <Impression/>
      }
      continue;
    }
    // A closing tag closes the nearest open element of its name (and anything left open inside it).
    let i = depth - 1;
    while (i >= 0 && !sameName(vast, nameStarts[i] as number, nameEnds[i] as number, nameStart, nameEnd)) i--;
    if (i < 0) continue;
    const kind = kinds[i];
    if (kind === IMPRESSION && i > 0 && kinds[i - 1] === CONTAINER) lastImpressionEnds[i - 1] = end;
    if (kind === CONTAINER) {
      const lastImpressionEnd = lastImpressionEnds[i] as number;
      (insertAt ??= []).push(lastImpressionEnd >= 0 ? lastImpressionEnd : lt);
    }
    depth = i;
  }
  if (kinds.length > KEPT_DEPTH) openElements = emptyStack();

  if (insertAt === undefined) return { vast, inserted: 0 };
  const tagText = impressionTag(impressionUrl);
  let out = '';
  let from = 0;
  for (const at of insertAt.sort((a, b) => a - b)) {
    out += vast.slice(from, at) + tagText;
    from = at;
  }
  return { vast: out + vast.slice(from), inserted: insertAt.length };
};
