import type { IncomingHttpHeaders } from 'node:http';
import { isAppError } from '../core/app-error.js';
import type { MaybePromise } from '../core/maybe-promise.js';
import { STATUS_BY_CODE } from './error-status.js';

/**
 * What a route answers, whichever server writes it: Fastify, or the fast lane for the hottest
 * routes. Routes written as an {@link AnswerHandler} or {@link BodyAnswerHandler} behave the same
 * on both.
 */
export interface Answer {
  readonly status: number;
  /** Absent when the body is empty. */
  readonly contentType?: string;
  readonly body?: string | Buffer;
}

/** What an {@link AnswerHandler} may read of a request. */
export interface AnswerRequest {
  /** Parsed as Fastify parses it: a repeated parameter is an array. */
  readonly query: Readonly<Record<string, unknown>>;
  readonly headers: IncomingHttpHeaders;
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

/** A POST route as a function of the request and its body; errors as for {@link AnswerHandler}. */
export type BodyAnswerHandler = (req: BodyAnswerRequest) => MaybePromise<Answer>;

export const TEXT_PLAIN = 'text/plain; charset=utf-8';

/** The answer for an error: domain errors keep their message; anything else hides its details. */
export const errorAnswer = (err: unknown): Answer =>
  isAppError(err)
    ? { status: STATUS_BY_CODE[err.code], contentType: TEXT_PLAIN, body: err.message }
    : { status: 500, contentType: TEXT_PLAIN, body: 'Internal server error.' };

/** What to log of a 5xx: the underlying cause of a domain error, else the error itself. */
export const loggableCause = (err: unknown): unknown => (isAppError(err) && err.cause !== undefined ? err.cause : err);
