import type { IncomingHttpHeaders } from 'node:http';
import { isAppError } from '../core/app-error.js';
import type { ByteString, Bytes } from '../core/bytes.js';
import type { MaybePromise } from '../core/maybe-promise.js';
import { STATUS_BY_CODE } from './error-status.js';

/**
 * What a route answers, whichever server writes it: Fastify, or a lane for the hottest routes.
 * Routes written as an {@link AnswerHandler} or {@link BodyAnswerHandler} behave the same on all.
 */
export type Answer = AnswerHead & (TextOrBufferBody | ByteStringBody);

interface AnswerHead {
  readonly status: number;
  /** Absent when the body is empty. */
  readonly contentType?: string;
  /**
   * The route's own headers (AMP's CORS headers), flat: name, value, name, value..., names in
   * lower case, values printable ASCII. Written after the CORS echo, before Content-Type.
   */
  readonly headers?: readonly string[];
}

/** A body of text (sent as UTF-8) or bytes; absent when empty. */
interface TextOrBufferBody {
  readonly body?: string | Buffer;
  readonly bodyEncoding?: undefined;
}

/** Bytes held in a string, one character per byte: sent as they are (`latin1`), not as UTF-8. */
interface ByteStringBody {
  readonly body: ByteString;
  readonly bodyEncoding: 'latin1';
}

/** An answer of stored bytes, whichever form the store gave them in. */
export const bytesAnswer = (status: number, contentType: string, body: Bytes): Answer =>
  // The same four fields either way, so the writers see one object shape.
  typeof body === 'string' ? { status, contentType, body, bodyEncoding: 'latin1' } : { status, contentType, body, bodyEncoding: undefined };

/** The bytes of an answer's body on the wire. */
export const answerBodyBytes = (answer: Answer): number => {
  const body = answer.body;
  if (body === undefined) return 0;
  return typeof body === 'string' && answer.bodyEncoding === undefined ? Buffer.byteLength(body, 'utf8') : body.length;
};

/** What an {@link AnswerHandler} may read of a request. */
export interface AnswerRequest {
  /** Parsed as Fastify parses it: a repeated parameter is an array. */
  readonly query: Readonly<Record<string, unknown>>;
  readonly headers: IncomingHttpHeaders;
  /**
   * The client's address: the peer's, or behind trusted proxies (`server.trusted_proxies`) the
   * one `X-Forwarded-For` names (`client-address.ts`). The same on every path.
   */
  readonly ip: string;
}

/** A request with a body: the body decoded as UTF-8 text whatever its Content-Type ('' when empty). */
export interface BodyAnswerRequest extends AnswerRequest {
  readonly body: string;
}

/**
 * A GET route as a function of the request. It may throw (or reject with) an `AppError`, which
 * becomes a plain-text error answer with the status of `error-status.ts`; any other error is a 500.
 */
export type AnswerHandler = (req: AnswerRequest) => MaybePromise<Answer>;

/**
 * The headers every answer of a route carries, errors included, worked out from the request
 * alone before its handler runs (flat, as {@link Answer}'s `headers`); undefined for none. Pure,
 * never throws.
 */
export type RouteHeaders = (req: AnswerRequest) => readonly string[] | undefined;

/** A POST route as a function of the request and its body; errors as for {@link AnswerHandler}. */
export type BodyAnswerHandler = (req: BodyAnswerRequest) => MaybePromise<Answer>;

export const TEXT_PLAIN = 'text/plain; charset=utf-8';
/** The Content-Type of JSON answers built from values, as Fastify writes it for a string body. */
export const JSON_UTF8 = 'application/json; charset=utf-8';

/** A 200 answer of `value` as JSON text. */
export const jsonAnswer = (value: unknown): Answer => ({ status: 200, contentType: JSON_UTF8, body: JSON.stringify(value) });

/** The answer for an error: domain errors keep their message; anything else hides its details. */
export const errorAnswer = (err: unknown): Answer =>
  isAppError(err)
    ? { status: STATUS_BY_CODE[err.code], contentType: TEXT_PLAIN, body: err.message }
    : { status: 500, contentType: TEXT_PLAIN, body: 'Internal server error.' };

/** What to log of a 5xx: the underlying cause of a domain error, else the error itself. */
export const loggableCause = (err: unknown): unknown => (isAppError(err) && err.cause !== undefined ? err.cause : err);
