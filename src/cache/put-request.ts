import { AppError, ErrorCode } from '../core/app-error.js';
import { rawPutValues } from './raw-put-values.js';
import type { ValueType } from './stored-value.js';
import { JsonTooDeepError, parseBoundedJson } from '../core/bounded-json.js';
import { isObject } from '../core/json-object.js';

/** The request limits of `/cache` (config `cache.request_limits`). */
export interface CacheLimits {
  readonly maxSizeBytes: number;
  readonly maxNumValues: number;
  readonly maxTtlSeconds: number;
  readonly allowSettingKeys: boolean;
  readonly maxKeyLength: number;
  /** Keys another user of the same store keeps to itself; a put may not take one. */
  readonly reservedKeys?: ReservedKeys;
}

/**
 * A part of the key space of a store the cache shares (module storage's, on one Redis), given by
 * its owner through `app.ts`: `/cache` neither writes nor reads keys under `prefix`, so the two
 * never see each other's entries.
 */
export interface ReservedKeys {
  readonly prefix: string;
  /** Who keeps them, for the refusal's message. */
  readonly owner: string;
}

/** A put that passed validation: the text to store, its final TTL and the honoured key, if any. */
export interface CachePut {
  readonly type: ValueType;
  /** XML text, or the JSON text exactly as posted. */
  readonly value: string;
  readonly ttlSeconds: number;
  /** Present only when keys are allowed and a non-empty key was given. */
  readonly key?: string;
}

/** An unvalidated put, as a caller inside the process (vtrack, auction) hands it over. */
export interface CachePutInput {
  readonly type: unknown;
  /** For `json`, the JSON text; for `xml`, the XML text. */
  readonly value: unknown;
  readonly ttlseconds?: unknown;
  readonly key?: unknown;
}

const fail = (message: string): never => {
  throw new AppError(ErrorCode.BAD_REQUEST, message);
};

/**
 * Parses and validates a `POST /cache` body. Throws `AppError(BAD_REQUEST)` with the message of
 * the first problem, in put order (as Prebid Cache does), so that nothing is written when any put
 * is invalid.
 */
export const parsePutRequest = (body: string, limits: CacheLimits): CachePut[] => {
  if (body.trim() === '') fail('Request body is empty.');
  let parsed: unknown;
  try {
    parsed = parseBoundedJson(body);
  } catch (err) {
    fail(err instanceof JsonTooDeepError ? `Request body is refused: ${err.message}.` : 'Request body is not valid JSON.');
  }
  const puts = isObject(parsed) ? parsed.puts : undefined;
  if (!Array.isArray(puts)) return fail('Request body must be a JSON object with a "puts" array.');
  checkCount(puts.length, limits);

  // Raw spans are needed only for json values; most traffic (VAST) is xml and skips the scan.
  let raw: (string | undefined)[] | undefined;
  const rawValue = (i: number): string | undefined => (raw ??= rawPutValues(body))[i];

  return puts.map((put: unknown, i) => {
    if (!isObject(put)) return fail(`puts[${i}] must be a JSON object.`);
    if (!('value' in put)) return fail('Missing value.');
    return validatePut(put, i, limits, (type) =>
      type === 'xml' ? xmlText(put.value) : (rawValue(i) ?? JSON.stringify(put.value)),
    );
  });
};

/**
 * Validates puts handed over inside the process (vtrack, auction), where values of both types
 * already arrive as text. Same rules and messages as `parsePutRequest`.
 */
export const validatePuts = (puts: readonly CachePutInput[], limits: CacheLimits): CachePut[] => {
  checkCount(puts.length, limits);
  return puts.map((put, i) => {
    if (put.value === undefined) return fail('Missing value.');
    return validatePut(put, i, limits, (type) =>
      type === 'xml' ? xmlText(put.value) : typeof put.value === 'string' ? put.value : fail('JSON values must be handed over as JSON text.'),
    );
  });
};

const checkCount = (count: number, limits: CacheLimits): void => {
  if (count > limits.maxNumValues) fail(`More keys than allowed: ${count}`);
};

const xmlText = (value: unknown): string =>
  typeof value === 'string' ? value : fail(`XML messages must have a String value. Found ${abbreviate(JSON.stringify(value) ?? 'nothing')}`);

/** Checks in Prebid Cache's order: TTL, type, value, size, then the key. */
const validatePut = (
  put: { readonly type?: unknown; readonly ttlseconds?: unknown; readonly key?: unknown },
  index: number,
  limits: CacheLimits,
  textOf: (type: ValueType) => string,
): CachePut => {
  const ttlSeconds = effectiveTtl(put.ttlseconds, limits.maxTtlSeconds);
  const type = put.type;
  if (type !== 'xml' && type !== 'json') {
    return fail(`Type must be one of ["json", "xml"]. Found '${describeScalar(type)}'`);
  }
  const value = textOf(type);
  // UTF-8 takes at most 3 bytes per UTF-16 code unit, so a short value needs no counting.
  if (value.length * 3 > limits.maxSizeBytes) {
    const size = Buffer.byteLength(value, 'utf8');
    if (size > limits.maxSizeBytes) fail(`POST /cache element ${index} exceeded max size: Payload size ${size} exceeded max ${limits.maxSizeBytes}`);
  }
  const key = limits.allowSettingKeys ? validKey(put.key, limits) : undefined;
  return key === undefined ? { type, value, ttlSeconds } : { type, value, ttlSeconds, key };
};

/** Missing or 0 → the maximum; above the maximum → capped; negative or not an integer → 400. */
const effectiveTtl = (ttl: unknown, max: number): number => {
  if (ttl === undefined || ttl === null) return max;
  if (typeof ttl !== 'number' || !Number.isInteger(ttl)) {
    return fail(`ttlseconds must be an integer. Found ${abbreviate(JSON.stringify(ttl))}`);
  }
  if (ttl < 0) fail(`ttlseconds must not be negative ${ttl}.`);
  return ttl === 0 || ttl > max ? max : ttl;
};

const validKey = (key: unknown, { maxKeyLength, reservedKeys }: CacheLimits): string | undefined => {
  if (key === undefined || key === null || key === '') return undefined;
  if (typeof key !== 'string') return fail('key must be a string.');
  if (key.length > maxKeyLength) fail(`key must be at most ${maxKeyLength} characters. Found ${key.length}`);
  if (reservedKeys !== undefined && key.startsWith(reservedKeys.prefix)) {
    fail(`key must not start with '${reservedKeys.prefix}', which is reserved for ${reservedKeys.owner}.`);
  }
  return key;
};

const describeScalar = (v: unknown): string => (v === undefined || v === null ? '' : typeof v === 'string' ? v : abbreviate(JSON.stringify(v)));

const abbreviate = (s: string): string => (s.length > 64 ? `${s.slice(0, 61)}...` : s);
