/**
 * Every error code a domain module may raise. `http/error-status.ts` is the one table that maps
 * these to HTTP statuses; domain code never thinks in status codes.
 */
export const ErrorCode = {
  /** The request is malformed or breaks a rule (bad JSON, wrong type, negative TTL...). */
  BAD_REQUEST: 'BAD_REQUEST',
  /** The request body exceeds the configured size limit. */
  PAYLOAD_TOO_LARGE: 'PAYLOAD_TOO_LARGE',
  /** The caller is not allowed to do this (missing or wrong API key, account refused). */
  UNAUTHORIZED: 'UNAUTHORIZED',
  /** The thing asked for does not exist. */
  NOT_FOUND: 'NOT_FOUND',
  /** A backend (Redis, Postgres, remote cache) failed. */
  BACKEND_FAILURE: 'BACKEND_FAILURE',
  /** A backend did not answer within its time budget. */
  BACKEND_TIMEOUT: 'BACKEND_TIMEOUT',
  /** The service is shutting down and refuses new work. */
  UNAVAILABLE: 'UNAVAILABLE',
  /** A bug: an invariant did not hold. */
  INTERNAL: 'INTERNAL',
} as const;

export type ErrorCode = (typeof ErrorCode)[keyof typeof ErrorCode];

/**
 * The one error type domain modules throw on purpose. `message` is what the caller sees, so it
 * must never carry secrets or personal data.
 */
export class AppError extends Error {
  readonly code: ErrorCode;

  constructor(code: ErrorCode, message: string, options?: { cause?: unknown }) {
    super(message, options);
    this.name = 'AppError';
    this.code = code;
  }
}

export const isAppError = (err: unknown): err is AppError => err instanceof AppError;
