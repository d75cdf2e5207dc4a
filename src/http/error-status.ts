import type { ErrorCode } from '../core/app-error.js';

/** The one table from domain error codes to HTTP statuses. */
export const STATUS_BY_CODE: Readonly<Record<ErrorCode, number>> = {
  BAD_REQUEST: 400,
  UNAUTHORIZED: 401,
  NOT_FOUND: 404,
  PAYLOAD_TOO_LARGE: 413,
  INTERNAL: 500,
  // A backend that fails is "unavailable, retry later"; one that is too slow is a gateway timeout.
  // (Prebid Cache answers 500 and its own 597; standard codes serve monitoring better.)
  BACKEND_FAILURE: 503,
  UNAVAILABLE: 503,
  BACKEND_TIMEOUT: 504,
};
