import { AppError, ErrorCode, isAppError } from '../core/app-error.js';

/**
 * A source answered, but what it holds for an id breaks the rules (an account that fails the
 * schema, an answer that is not the documented shape). A `BACKEND_FAILURE` that a chain does not
 * hide by asking the next source: the data is wrong, not unreachable, and must be fixed.
 */
export class InvalidStoredData extends AppError {
  constructor(message: string) {
    super(ErrorCode.BACKEND_FAILURE, message);
    this.name = 'InvalidStoredData';
  }
}

export const isInvalidStoredData = (err: unknown): err is InvalidStoredData => err instanceof InvalidStoredData;

/** A source that failed; `detail` must not carry secrets (connection strings, passwords). */
export const backendFailure = (source: string, detail: string, cause?: unknown): AppError =>
  new AppError(ErrorCode.BACKEND_FAILURE, `${source}: ${detail}`, { cause });

export const backendTimeout = (source: string, ms?: number): AppError =>
  new AppError(ErrorCode.BACKEND_TIMEOUT, ms === undefined ? `${source}: the lookup was abandoned (deadline)` : `${source}: no answer within ${ms} ms`);

/** An AppError stays as it is; anything else becomes a `BACKEND_FAILURE` of `source`. */
export const asBackendError = (source: string, err: unknown): AppError =>
  isAppError(err) ? err : backendFailure(source, err instanceof Error ? err.message : String(err), err);

/**
 * `promise`, or a `BACKEND_TIMEOUT` rejection as soon as `signal` aborts (the caller's deadline).
 * The work itself goes on (a shared lookup may still serve others) and is bounded by its source's
 * own timeout.
 */
export const untilAborted = <T>(promise: Promise<T>, signal: AbortSignal | undefined, source: string): Promise<T> => {
  if (signal === undefined) return promise;
  if (signal.aborted) {
    promise.catch(() => undefined);
    return Promise.reject(backendTimeout(source));
  }
  let onAbort: () => void = () => undefined;
  const aborted = new Promise<never>((_, reject) => {
    onAbort = () => reject(backendTimeout(source));
    signal.addEventListener('abort', onAbort, { once: true });
  });
  return Promise.race([promise, aborted]).finally(() => signal.removeEventListener('abort', onAbort));
};
