/** Result: the VAST text with the tag inserted, and how many <InLine>/<Wrapper> elements received it. */
export interface ImpressionInsertion {
  readonly vast: string;
  readonly inserted: number;
}

/** The tag added for an impression URL; the URL must not contain `]]>` (URL-encoded values never do). */
export const impressionTag = (url: string): string => `<Impression><![CDATA[${url}]]></Impression>`;

interface Tag {
  readonly kind: 'open' | 'close';
  /** Lower-cased element name. */
  readonly name: string;
  readonly start: number;
  /** Index just past the tag's `>`. */
  readonly end: number;
  readonly selfClosing: boolean;
}

const isNameStart = (c: number): boolean => (c >= 65 && c <= 90) || (c >= 97 && c <= 122) || c === 95 || c === 58; // A-Z a-z _ :
const isNameEnd = (c: number): boolean => c === 32 || c === 9 || c === 10 || c === 13 || c === 47 || c === 62; // space \t \n \r / >

/**
 * The element tags of an XML text, in order, skipping comments, CDATA sections, processing
 * instructions and declarations, and respecting quoted attribute values. Stops quietly at the
 * first construct that is not closed (a truncated document yields the tags before it).
 */
function* tags(text: string): Generator<Tag> {
  let pos = 0;
  for (;;) {
    const lt = text.indexOf('<', pos);
    if (lt < 0 || lt + 1 >= text.length) return;
    const skipTo = (terminator: string, from: number): number => {
      const at = text.indexOf(terminator, from);
      return at < 0 ? -1 : at + terminator.length;
    };
    if (text.startsWith('<!--', lt)) {
      pos = skipTo('-->', lt + 4);
    } else if (text.startsWith('<![CDATA[', lt)) {
      pos = skipTo(']]>', lt + 9);
    } else if (text.startsWith('<?', lt)) {
      pos = skipTo('?>', lt + 2);
    } else if (text.startsWith('<!', lt)) {
      pos = endOfMarkup(text, lt + 2);
    } else {
      const closing = text.charCodeAt(lt + 1) === 47; // '/'
      const nameStart = lt + (closing ? 2 : 1);
      if (!isNameStart(text.charCodeAt(nameStart))) {
        pos = lt + 1; // a stray '<' in text
        continue;
      }
      let nameEnd = nameStart;
      while (nameEnd < text.length && !isNameEnd(text.charCodeAt(nameEnd))) nameEnd++;
      const end = endOfMarkup(text, nameEnd);
      if (end < 0) return;
      yield {
        kind: closing ? 'close' : 'open',
        name: text.slice(nameStart, nameEnd).toLowerCase(),
        start: lt,
        end,
        selfClosing: !closing && text.charCodeAt(end - 2) === 47,
      };
      pos = end;
      continue;
    }
    if (pos < 0) return;
  }
}

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

const CONTAINERS = new Set(['inline', 'wrapper']);

/**
 * Adds `<Impression><![CDATA[url]]></Impression>` to every `<InLine>` and `<Wrapper>` of a VAST
 * document, working on the text (no XML parser, nothing else changes): after the container's last
 * direct-child `<Impression>`, or, with none, just before the container's closing tag. Tag names
 * match in any case and with attributes; markup inside comments and CDATA is not markup.
 *
 * Every `<Ad>` gets the tag: in an ad pod each ad that plays is an impression of the bid, and in
 * a buffet only the ad that plays fires its tags. A container that is never closed (a truncated
 * document) is left alone; a document with no container comes back unchanged.
 */
export const insertImpression = (vast: string, impressionUrl: string): ImpressionInsertion => {
  interface Open {
    readonly name: string;
    /** For containers: where the last direct-child Impression ended (-1 if none yet). */
    lastImpressionEnd: number;
  }
  const stack: Open[] = [];
  const insertAt: number[] = [];

  for (const tag of tags(vast)) {
    if (tag.kind === 'open') {
      const parent = stack.at(-1);
      if (tag.name === 'impression' && parent !== undefined && CONTAINERS.has(parent.name) && tag.selfClosing) parent.lastImpressionEnd = tag.end;
      if (!tag.selfClosing) stack.push({ name: tag.name, lastImpressionEnd: -1 });
      continue;
    }
    // A closing tag closes the nearest open element of its name (and anything left open inside it).
    let i = stack.length - 1;
    while (i >= 0 && stack[i]?.name !== tag.name) i--;
    if (i < 0) continue;
    const closed = stack[i] as Open;
    const parent = stack[i - 1];
    stack.length = i;
    if (closed.name === 'impression' && parent !== undefined && CONTAINERS.has(parent.name)) parent.lastImpressionEnd = tag.end;
    if (CONTAINERS.has(closed.name)) insertAt.push(closed.lastImpressionEnd >= 0 ? closed.lastImpressionEnd : tag.start);
  }

  if (insertAt.length === 0) return { vast, inserted: 0 };
  const tagText = impressionTag(impressionUrl);
  let out = '';
  let from = 0;
  for (const at of insertAt.sort((a, b) => a - b)) {
    out += vast.slice(from, at) + tagText;
    from = at;
  }
  return { vast: out + vast.slice(from), inserted: insertAt.length };
};
