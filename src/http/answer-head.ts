import { STATUS_CODES } from 'node:http';
import type { Answer } from './answer.js';
import { ALLOW_CREDENTIALS, ALLOW_ORIGIN, ANSWER_HEADERS } from './cors.js';

/**
 * Writes the head of an answer as bytes for the wire (a latin1 string), byte for byte as node:http
 * writes the fast lane's `writeHead` of the same answer: status line, the headers of every answer,
 * the CORS echo, Content-Type, Content-Length, then node's own Date, Connection and Keep-Alive.
 */
export type AnswerHeadWriter = (answer: Answer, bodyBytes: number, origin: string | undefined) => string;

const BASE_LINES = ANSWER_HEADERS.map(([name, value]) => `${name}: ${value}\r\n`).join('');
const CREDENTIALS_LINE = `${ALLOW_CREDENTIALS[0]}: ${ALLOW_CREDENTIALS[1]}\r\n`;

/**
 * A head writer for a server whose idle connections close after `keepAliveTimeoutMs`. The Date
 * is formatted once a second, as node:http does; `now` is the clock (ms since the epoch).
 */
export const createAnswerHeadWriter = (keepAliveTimeoutMs: number, now: () => number = Date.now): AnswerHeadWriter => {
  const statusLines = new Map<number, string>();
  const statusLine = (status: number): string => {
    let line = statusLines.get(status);
    if (line === undefined) statusLines.set(status, (line = `HTTP/1.1 ${String(status)} ${STATUS_CODES[status] ?? 'unknown'}\r\n`));
    return line;
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
    let head = statusLine(answer.status) + BASE_LINES;
    if (origin !== undefined) head += `${ALLOW_ORIGIN}: ${origin}\r\n${CREDENTIALS_LINE}`;
    if (answer.contentType !== undefined) head += `content-type: ${answer.contentType}\r\n`;
    return `${head}content-length: ${String(bodyBytes)}\r\n${dateAndConnection()}`;
  };
};
