import { timingSafeEqual } from 'node:crypto';
import { AppError, ErrorCode } from '../core/app-error.js';

/** The header the interface names; Prebid Server Java sends the same key as `x-pbc-api-key`. */
export const API_KEY_HEADER = 'x-svc-api-key';
export const LEGACY_API_KEY_HEADER = 'x-pbc-api-key';

/**
 * Builds the check of a caller's API key against the configured one: it throws `UNAUTHORIZED`
 * when the key is missing or differs (exact, case-sensitive). With no key configured, every
 * caller is refused: an empty configuration must never mean "open".
 *
 * The bytes are compared with `timingSafeEqual`, so response timing does not reveal how much of a
 * guess was right; a guess of another length is compared against the key itself (same work,
 * false result), so only the length, which is not secret, could be inferred. A header sent
 * several times arrives joined by ", " (Prebid Server Java can repeat it); each part is tried.
 */
export const createApiKeyCheck = (configured: string): ((provided: string | undefined) => void) => {
  const expected = configured === '' ? undefined : Buffer.from(configured, 'utf8');
  const matches = (candidate: string, key: Buffer): boolean => {
    const given = Buffer.from(candidate, 'utf8');
    if (given.length !== key.length) return !timingSafeEqual(key, key);
    return timingSafeEqual(given, key);
  };
  return (provided) => {
    if (expected === undefined) throw new AppError(ErrorCode.UNAUTHORIZED, 'Storage is closed: no api.api-key is configured on this server.');
    if (provided === undefined || provided === '') throw new AppError(ErrorCode.UNAUTHORIZED, `Missing API key: send it in the ${API_KEY_HEADER} header.`);
    const candidates = provided.includes(', ') ? [provided, ...provided.split(', ')] : [provided];
    let match = false;
    for (const candidate of candidates) match = matches(candidate, expected) || match;
    if (!match) throw new AppError(ErrorCode.UNAUTHORIZED, 'Invalid API key.');
  };
};
