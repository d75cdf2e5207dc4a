import { STATUS_CODES } from 'node:http';
import type { Answer } from './answer.js';

/**
 * The one list of the headers openbid answers with, whichever path writes the answer: Fastify
 * (`cors.ts` sets them in its `onRequest` hook), the node lane (`node-lane.ts`, through
 * {@link answerFields}) and the socket lane (`socket-lane.ts`, through {@link createAnswerHeadWriter}).
 * Every field, its value and its place in the head is decided here and nowhere else.
 */

/**
 * Headers of every answer: each one is per request (cache values, errors, auctions), so never
 * stored by a browser or proxy and never sniffed into another type; `Vary` because the CORS
 * headers depend on the Origin and the large answers' encoding on Accept-Encoding
 * (`compression.ts`). One value for every route, so that every path writes it alike.
 */
export const ANSWER_HEADERS: readonly (readonly [string, string])[] = [
  ['vary', 'Origin, Accept-Encoding'],
  ['cache-control', 'no-cache'],
  ['x-content-type-options', 'nosniff'],
];

/**
 * CORS for a request with an Origin: it is echoed in this header, with
 * `Access-Control-Allow-Credentials: true` (a wildcard is not allowed with credentials, which
 * Prebid.js sends). A request without an Origin gets neither.
 */
export const ALLOW_ORIGIN = 'access-control-allow-origin';
export const ALLOW_CREDENTIALS = ['access-control-allow-credentials', 'true'] as const;

/** Where headers can be set one by one: a Fastify reply. */
export interface HeaderTarget {
  header(name: string, value: string): unknown;
}

/**
 * Sets the headers every answer has, for a request with this Origin: the fixed ones, then the
 * CORS echo. Fastify's hook uses it; the lanes write the same fields in the same order from the
 * precomputed forms below.
 */
export const setRequestHeaders = (origin: string | undefined, target: HeaderTarget): void => {
  for (const [name, value] of ANSWER_HEADERS) target.header(name, value);
  if (origin !== undefined) {
    target.header(ALLOW_ORIGIN, origin);
    target.header(ALLOW_CREDENTIALS[0], ALLOW_CREDENTIALS[1]);
  }
};

/** Whether an answer of this status carries a Content-Length: never a 204 or 304 (RFC 9110 8.6), as Fastify does. */
const hasContentLength = (status: number): boolean => status !== 204 && status !== 304;

// The fixed fields flattened once, as `writeHead` takes them.
const FIXED_FIELDS: readonly string[] = ANSWER_HEADERS.flat();

/**
 * Every header of an answer, flat (`name, value, name, value...`) as node:http's `writeHead`
 * takes them: the headers of every answer, the CORS echo, the route's own, Content-Type, Content-Length.
 */
export const answerFields = (answer: Answer, bodyBytes: number, origin: string | undefined): string[] => {
  const fields = FIXED_FIELDS.slice();
  if (origin !== undefined) fields.push(ALLOW_ORIGIN, origin, ALLOW_CREDENTIALS[0], ALLOW_CREDENTIALS[1]);
  if (answer.headers !== undefined) fields.push(...answer.headers);
  if (answer.contentType !== undefined) fields.push('content-type', answer.contentType);
  if (hasContentLength(answer.status)) fields.push('content-length', String(bodyBytes));
  return fields;
};

/**
 * Writes the head of an answer as bytes for the wire (a latin1 string), byte for byte as node:http
 * writes `writeHead(status, answerFields(...))`: status line, {@link answerFields} (the route's own
 * headers included), then node's
 * own Date, Connection and Keep-Alive.
 */
export type AnswerHeadWriter = (answer: Answer, bodyBytes: number, origin: string | undefined) => string;

const line = (name: string, value: string): string => `${name}: ${value}\r\n`;
const FIXED_LINES = ANSWER_HEADERS.map(([name, value]) => line(name, value)).join('');
const CREDENTIALS_LINE = line(ALLOW_CREDENTIALS[0], ALLOW_CREDENTIALS[1]);

/**
 * A head writer for a server whose idle connections close after `keepAliveTimeoutMs`. The Date
 * is formatted once a second, as node:http does; `now` is the clock (ms since the epoch).
 */
export const createAnswerHeadWriter = (keepAliveTimeoutMs: number, now: () => number = Date.now): AnswerHeadWriter => {
  const statusLines = new Map<number, string>();
  const statusLine = (status: number): string => {
    let text = statusLines.get(status);
    if (text === undefined) statusLines.set(status, (text = `HTTP/1.1 ${String(status)} ${STATUS_CODES[status] ?? 'unknown'}\r\n${FIXED_LINES}`));
    return text;
  };
  const connectionLines = `Connection: keep-alive\r\nKeep-Alive: timeout=${String(Math.floor(keepAliveTimeoutMs / 1000))}\r\n\r\n`;
  let tail = '';
  let tailUntil = 0;
  const dateAndConnection = (): string => {
    const ms = now();
    if (ms >= tailUntil) {
      tailUntil = (Math.floor(ms / 1000) + 1) * 1000;
      tail = `Date: ${new Date(ms).toUTCString()}\r\n${connectionLines}`;
    }
    return tail;
  };

  return (answer, bodyBytes, origin) => {
    let head = statusLine(answer.status);
    if (origin !== undefined) head += `${ALLOW_ORIGIN}: ${origin}\r\n${CREDENTIALS_LINE}`;
    const own = answer.headers;
    if (own !== undefined) for (let i = 0; i + 1 < own.length; i += 2) head += `${own[i] as string}: ${own[i + 1] as string}\r\n`;
    if (answer.contentType !== undefined) head += `content-type: ${answer.contentType}\r\n`;
    if (hasContentLength(answer.status)) head += `content-length: ${String(bodyBytes)}\r\n`;
    return head + dateAndConnection();
  };
};
