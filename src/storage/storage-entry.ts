import { AppError, ErrorCode } from '../core/app-error.js';
import { JsonTooDeepError, parseBoundedJson } from '../core/bounded-json.js';

/** The data formats a storage entry may declare; stored and answered in lower case. */
export const STORAGE_TYPES = ['json', 'xml', 'text'] as const;
export type StorageType = (typeof STORAGE_TYPES)[number];

/** A validated write. */
export interface StorageEntry {
  readonly application: string;
  readonly key: string;
  readonly type: StorageType;
  readonly value: string;
  readonly ttlSeconds: number;
}

export interface StorageLimits {
  readonly defaultTtlSeconds: number;
  readonly maxTtlSeconds: number;
  readonly maxValueBytes: number;
  readonly maxKeyLength: number;
}

/**
 * Parses and validates a storage write body. Throws `BAD_REQUEST` listing every problem, one per
 * line, so a client fixes its request in one go.
 */
export const parseStorageEntry = (body: string, limits: StorageLimits): StorageEntry => {
  if (body.trim() === '') throw new AppError(ErrorCode.BAD_REQUEST, 'Request body is empty.');
  let parsed: unknown;
  try {
    parsed = parseBoundedJson(body);
  } catch (err) {
    throw new AppError(ErrorCode.BAD_REQUEST, err instanceof JsonTooDeepError ? `Request body is refused: ${err.message}.` : 'Request body is not valid JSON.');
  }
  if (typeof parsed !== 'object' || parsed === null || Array.isArray(parsed)) {
    throw new AppError(ErrorCode.BAD_REQUEST, 'Request body must be a JSON object with key, value, type and application.');
  }
  const input = parsed as Record<string, unknown>;
  const problems: string[] = [];

  const key = requiredString(input, 'key', problems);
  if (key !== undefined && key.length > limits.maxKeyLength) problems.push(`key must be at most ${limits.maxKeyLength} characters. Found ${key.length}`);

  const value = requiredString(input, 'value', problems, { allowEmpty: true });
  if (value !== undefined) {
    const bytes = Buffer.byteLength(value, 'utf8');
    if (bytes > limits.maxValueBytes) problems.push(`value is larger than the limit of ${limits.maxValueBytes} bytes. Found ${bytes}`);
  }

  const rawType = requiredString(input, 'type', problems);
  const type = rawType?.toLowerCase() as StorageType | undefined;
  if (rawType !== undefined && !STORAGE_TYPES.includes(type as StorageType)) problems.push(`type must be one of JSON, XML, TEXT. Found '${rawType}'`);

  const application = requiredString(input, 'application', problems);
  const ttlSeconds = ttl(input.ttlseconds, limits, problems);

  if (problems.length > 0) throw new AppError(ErrorCode.BAD_REQUEST, problems.join('\n'));
  return { application: application as string, key: key as string, type: type as StorageType, value: value as string, ttlSeconds };
};

const requiredString = (input: Record<string, unknown>, field: string, problems: string[], opts: { allowEmpty?: boolean } = {}): string | undefined => {
  const v = input[field];
  if (v === undefined || v === null) {
    problems.push(`${field} is required.`);
    return undefined;
  }
  if (typeof v !== 'string') {
    problems.push(`${field} must be a string. Found ${typeof v}`);
    return undefined;
  }
  if (v === '' && !opts.allowEmpty) {
    problems.push(`${field} must not be empty.`);
    return undefined;
  }
  return v;
};

/** Missing → the default; must be a positive integer no larger than the maximum. */
const ttl = (v: unknown, limits: StorageLimits, problems: string[]): number => {
  if (v === undefined || v === null) return limits.defaultTtlSeconds;
  if (typeof v !== 'number' || !Number.isInteger(v) || v <= 0) {
    problems.push(`ttlseconds must be a positive integer. Found ${JSON.stringify(v)}`);
    return 0;
  }
  if (v > limits.maxTtlSeconds) problems.push(`ttlseconds must be at most ${limits.maxTtlSeconds}. Found ${v}`);
  return v;
};
