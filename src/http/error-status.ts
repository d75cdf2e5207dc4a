import { STATUS_CODES } from 'node:http';
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

/**
 * Fastify's own client errors (4xx) as openbid answers them: fixed words by error code, else the
 * status's reason phrase. Fastify's messages echo the request (`'/cache%zz' is not a valid url
 * component`) and are an exception's text, which no answer carries.
 */
const FRAMEWORK_CLIENT_ERRORS: ReadonlyMap<string, string> = new Map([
  ['FST_ERR_BAD_URL', 'The request URL is not valid (a bad percent-encoding).'],
  ['FST_ERR_ASYNC_CONSTRAINT', 'The request does not match any route.'],
  ['FST_ERR_CTP_INVALID_MEDIA_TYPE', 'Unsupported Media Type'],
  ['FST_ERR_CTP_INVALID_CONTENT_LENGTH', 'Request body size did not match Content-Length.'],
  ['FST_ERR_CTP_EMPTY_JSON_BODY', 'Request body is empty.'],
]);

/** The text of a framework client error of `status`, in openbid's words. */
export const frameworkClientErrorText = (code: string | undefined, status: number): string => FRAMEWORK_CLIENT_ERRORS.get(code ?? '') ?? `${STATUS_CODES[status] ?? 'Bad Request'}.`;
