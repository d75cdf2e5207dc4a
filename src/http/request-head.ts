/**
 * Reads an HTTP/1.1 request head, strictly: only the narrow, unambiguous form the socket lane
 * serves itself. Anything outside it is not an error here but "not mine": the connection goes
 * to node:http, whose parser (llhttp) answers it or refuses it with its own status. So this
 * reader never has to be as complete as llhttp, only never more lenient. That is what keeps
 * request smuggling out: every byte whose framing could be read two ways (a bare CR or LF, a
 * folded line, Transfer-Encoding, two Content-Lengths, a Content-Length that is not plain
 * digits) makes the head unsupported.
 */

/** A request head the socket lane can serve. */
export interface RequestHead {
  readonly method: 'GET' | 'POST';
  /** The request target as sent: an absolute path, then an optional `?query`. */
  readonly target: string;
  /**
   * Header fields by lower-case name, values without surrounding blanks, as node:http gives
   * them. Every name appears once (a repeated name makes the head unsupported).
   */
  readonly headers: Record<string, string>;
  /** The body's length (0 when there is no Content-Length). */
  readonly contentLength: number;
  /** The length of the head, its closing empty line included: where the body starts. */
  readonly headBytes: number;
}

/** The head has not all arrived yet. */
export const INCOMPLETE = 0;
/** The head is not one the socket lane serves: node:http must read it. */
export const UNSUPPORTED = 1;

export type HeadReading = RequestHead | typeof INCOMPLETE | typeof UNSUPPORTED;

/** node:http's default `maxHeaderSize`: a longer head goes to node:http, which answers 431. */
export const MAX_HEAD_BYTES = 16 * 1024;

const HEAD_END = Buffer.from('\r\n\r\n', 'latin1');
/**
 * A control character other than HTAB, a CR not followed by LF or an LF not preceded by CR:
 * lines must end in CRLF and nothing else, and values hold no controls (RFC 9110 5.5).
 */
// eslint-disable-next-line no-control-regex -- control characters are what it looks for
const FORBIDDEN = /[\x00-\x08\x0b\x0c\x0e-\x1f\x7f]|\r(?!\n)|(?<!\r)\n/;
/**
 * The request line: GET or POST, an origin-form target of visible ASCII (no fragment), HTTP/1.1.
 * HEAD, OPTIONS, absolute-form targets and HTTP/1.0 go to node:http.
 */
const REQUEST_LINE = /^(GET|POST) (\/[!-"$-~]*) HTTP\/1\.1$/;
/** A field name: an RFC 9110 token. A name with a blank before its colon is not one. */
const FIELD_NAME = /^[!#$%&'*+\-.^_`|~0-9A-Za-z]+$/;
/** A Content-Length: digits, with spaces around at most (llhttp refuses a tab there). */
const CONTENT_LENGTH = /^ *[0-9]{1,15} *$/;

/** Fields whose presence means framing or semantics the socket lane leaves to node:http. */
const NOT_MINE = new Set(['transfer-encoding', 'upgrade', 'expect', 'te', 'trailer']);

const isBlank = (code: number): boolean => code === 0x20 || code === 0x09;

const GET_START = Buffer.from('GET /', 'latin1');
const POST_START = Buffer.from('POST /', 'latin1');
/** Whether `bytes` could still become a request this reader serves: they start as one does. */
const mayBecomeMine = (bytes: Buffer): boolean => {
  const start = bytes[0] === 0x50 ? POST_START : GET_START;
  return bytes.compare(start, 0, Math.min(start.length, bytes.length), 0, Math.min(start.length, bytes.length)) === 0;
};

/** The start of a request line: the method, a target so far, then perhaps the start of ` HTTP/1.1`. */
const REQUEST_LINE_START = /^(?:GET|POST) \/[!-"$-~]*(?: (.{0,8}))?$/;
const VERSION = 'HTTP/1.1';
/** A field line's name and colon: its value may still be arriving. */
const FIELD_LINE = /^([!#$%&'*+\-.^_`|~0-9A-Za-z]+):/;
/** The start of a field line's name, its colon not arrived yet. */
const FIELD_NAME_START = /^[!#$%&'*+\-.^_`|~0-9A-Za-z]*$/;
/** The start of a Content-Length value: llhttp refuses any other byte there as it arrives. */
const CONTENT_LENGTH_START = /^ *[0-9]{0,15} *$/;
/**
 * A Content-Length line longer than this goes to node:http: a longer one is all blanks, and
 * looking for an earlier Content-Length at each of its bytes must stay cheap.
 */
const MAX_CONTENT_LENGTH_LINE = 64;
/** A Content-Length field line anywhere in a head. */
const ANY_CONTENT_LENGTH = /(?:^|\n)content-length:/i;

/**
 * Whether a field line, whole (`ended`: its CR has come) or still arriving, may be one of a head
 * this reader serves, as far as llhttp refuses heads as their bytes arrive: a name of token
 * characters then a colon, a Content-Length of digits and at most one of them, none of the
 * fields the lane leaves to node:http (llhttp refuses Transfer-Encoding with Content-Length as
 * soon as it sees both). `before`: the head before this line.
 */
const mayBeFieldLine = (line: string, ended: boolean, before: () => string): boolean => {
  const field = FIELD_LINE.exec(line);
  if (field === null) return !ended && FIELD_NAME_START.test(line);
  const name = (field[1] as string).toLowerCase();
  if (NOT_MINE.has(name)) return false;
  if (name !== 'content-length') return true;
  const value = line.slice(field[0].length);
  if (line.length > MAX_CONTENT_LENGTH_LINE || !(ended ? CONTENT_LENGTH : CONTENT_LENGTH_START).test(value)) return false;
  return !ANY_CONTENT_LENGTH.test(before());
};

/**
 * Whether the start of a head, its end not yet arrived, could still become one this reader
 * serves. Wherever llhttp refuses a head as soon as a byte arrives (a bare CR or LF, a control
 * character, a request line or field line it cannot read), the lane must hand the bytes over
 * at once too, so that node:http answers (400) as promptly as without the lane: waiting for an
 * end that a bare-LF client never sends would turn that 400 into a 408 after
 * `headers_timeout_ms`. Being stricter than llhttp here is harmless: node:http then waits for
 * the rest as it would have. A CR at the very end ends its line, and may still be followed by
 * its LF.
 *
 * Only the bytes from `checked` on, and the line they continue, are looked at: a head that
 * trickles in a byte a read is not scanned whole at every byte.
 */
const mayStillBeMine = (bytes: Buffer, checked: number): boolean => {
  const endsInCr = bytes[bytes.length - 1] === 0x0d;
  const stop = endsInCr ? bytes.length - 1 : bytes.length;
  // From the last byte checked (a CR then left for its LF), and the CR before an LF there.
  let from = Math.max(0, checked - 1);
  if (from > 0 && bytes[from] === 0x0a) from--;
  const lineStart = from === 0 ? 0 : bytes.lastIndexOf(0x0a, from - 1) + 1;
  const text = bytes.toString('latin1', lineStart, stop);
  // From a CR or a byte that is no LF: the LF check sees every LF with the byte before it.
  if (FORBIDDEN.test(text.slice(from - lineStart))) return false;
  const lines = text.split('\r\n');
  const last = lines.length - 1;
  let first = 0;
  let offset = lineStart;
  if (lineStart === 0) {
    const requestLine = lines[0] as string;
    if (last > 0 || endsInCr) {
      if (!REQUEST_LINE.test(requestLine)) return false;
    } else {
      // The method and the target's slash are mayBecomeMine's to check.
      if (requestLine.length < (requestLine.startsWith('P') ? POST_START : GET_START).length) return true;
      const start = REQUEST_LINE_START.exec(requestLine);
      return start !== null && VERSION.startsWith(start[1] ?? '');
    }
    first = 1;
    offset += requestLine.length + 2;
  }
  for (let i = first; i <= last; i++) {
    const line = lines[i] as string;
    const ended = i < last || endsInCr;
    // An empty line ended by its CR: the head's end is arriving.
    if (!(i === last && line === '') && !mayBeFieldLine(line, ended, () => bytes.toString('latin1', 0, offset))) return false;
    offset += line.length + 2;
  }
  return true;
};

/**
 * Reads the request head at the start of `bytes`. {@link INCOMPLETE} when its end has not
 * arrived and what has could still become a head it serves (so node:http, given the same
 * bytes, would wait for more too); {@link UNSUPPORTED} when it is not one the socket lane
 * serves; else the head.
 *
 * `checked`: how many of the first bytes an earlier call on the same head already found
 * {@link INCOMPLETE} (0 if none did), so that only the bytes after them are searched again.
 */
export const readRequestHead = (bytes: Buffer, checked = 0): HeadReading => {
  const end = bytes.indexOf(HEAD_END, Math.max(0, checked - HEAD_END.length + 1));
  // Bytes that cannot become a GET or POST (TLS spoken to the plain port, say, or a head with
  // bare LF line ends, whose CRLF CRLF never comes) go to node:http now, which answers 400 at
  // once, rather than after the wait for more.
  if (end === -1) return bytes.length >= MAX_HEAD_BYTES || !mayBecomeMine(bytes) || !mayStillBeMine(bytes, checked) ? UNSUPPORTED : INCOMPLETE;
  const headBytes = end + HEAD_END.length;
  if (headBytes > MAX_HEAD_BYTES) return UNSUPPORTED;
  // latin1: one character per byte, so bytes 0x80-0xff in values (which node:http also
  // accepts) come back out unchanged when echoed.
  const head = bytes.toString('latin1', 0, end);
  if (FORBIDDEN.test(head)) return UNSUPPORTED;
  const lines = head.split('\r\n');
  const requestLine = REQUEST_LINE.exec(lines[0] ?? '');
  if (requestLine === null) return UNSUPPORTED;
  const headers: Record<string, string> = Object.create(null) as Record<string, string>;
  let rawLength: string | undefined;
  for (let i = 1; i < lines.length; i++) {
    const line = lines[i] as string;
    const colon = line.indexOf(':');
    if (colon <= 0) return UNSUPPORTED;
    const rawName = line.slice(0, colon);
    if (!FIELD_NAME.test(rawName)) return UNSUPPORTED;
    const name = rawName.toLowerCase();
    if (name in headers || NOT_MINE.has(name)) return UNSUPPORTED;
    if (name === 'content-length') rawLength = line.slice(colon + 1);
    let from = colon + 1;
    let to = line.length;
    while (from < to && isBlank(line.charCodeAt(from))) from++;
    while (to > from && isBlank(line.charCodeAt(to - 1))) to--;
    headers[name] = line.slice(from, to);
  }
  // HTTP/1.1 requires a Host; node:http answers 400 without one.
  if (headers.host === undefined) return UNSUPPORTED;
  // `Connection: close` (or anything but keep-alive) asks for connection handling node:http does.
  const connection = headers.connection;
  if (connection !== undefined && connection.toLowerCase() !== 'keep-alive') return UNSUPPORTED;
  let contentLength = 0;
  if (rawLength !== undefined) {
    if (!CONTENT_LENGTH.test(rawLength)) return UNSUPPORTED;
    contentLength = Number(rawLength);
  }
  const method = requestLine[1] as 'GET' | 'POST';
  // A GET with a body is legal but odd; node:http reads and drops it.
  if (method === 'GET' && contentLength !== 0) return UNSUPPORTED;
  return { method, target: requestLine[2] as string, headers, contentLength, headBytes };
};
