import { AppError, ErrorCode } from '../core/app-error.js';
import { JsonTooDeepError, parseBoundedJson } from '../core/bounded-json.js';
import { isObject } from '../core/json-object.js';

/** One validated `/vtrack` put. */
export interface TrackPut {
  readonly bidId: string;
  readonly bidder: string;
  readonly auctionId: string;
  /** VAST text, possibly malformed: never parsed. */
  readonly value: string;
  /** Digits, as they go into the event URL. */
  readonly timestamp: string;
  readonly ttlSeconds: number;
}

const DIGITS = /^\d{1,16}$/;

/** A non-negative integer given as a number or a string of digits (the interface shows both). */
const integerText = (v: unknown): string | undefined => {
  if (typeof v === 'number' && Number.isSafeInteger(v) && v >= 0) return String(v);
  if (typeof v === 'string' && DIGITS.test(v)) return v;
  return undefined;
};

const describe = (v: unknown): string => {
  const s = JSON.stringify(v) ?? String(v);
  return s.length > 64 ? `${s.slice(0, 61)}...` : s;
};

// Field checks of one put: the value when valid, else undefined and a problem noted (messages are
// built only then: this runs on every put).
const textField = (put: Record<string, unknown>, field: string, index: number, problems: string[]): string | undefined => {
  const v = put[field];
  if (v === undefined || v === null || v === '') problems.push(`puts[${index}].${field} is required.`);
  else if (typeof v !== 'string') problems.push(`puts[${index}].${field} must be a string. Found ${describe(v)}`);
  else return v;
  return undefined;
};

const integerField = (put: Record<string, unknown>, field: string, index: number, problems: string[]): string | undefined => {
  const v = put[field];
  const t = integerText(v);
  if (v === undefined || v === null || v === '') problems.push(`puts[${index}].${field} is required.`);
  else if (t === undefined) problems.push(`puts[${index}].${field} must be a non-negative integer (a number or digits). Found ${describe(v)}`);
  return t;
};

/**
 * Validates `POST /vtrack?a=`: the account parameter and a `{puts: [...]}` body whose puts all
 * carry `bidid`, `bidder`, `aid` (non-empty strings), `type` (`xml`), `value` (a string),
 * `timestamp` and `ttlseconds` (non-negative integers, as numbers or digit strings). Throws
 * `BAD_REQUEST` listing every problem, one per line.
 */
export const parseTrackRequest = (account: string | undefined, body: string): { account: string; puts: TrackPut[] } => {
  const problems: string[] = [];
  if (account === undefined || account === '') problems.push("Parameter 'a' (account id) is required.");
  let parsed: unknown;
  if (body.trim() === '') {
    problems.push('Request body is empty.');
  } else {
    try {
      parsed = parseBoundedJson(body);
    } catch (err) {
      problems.push(err instanceof JsonTooDeepError ? `Request body is refused: ${err.message}.` : 'Request body is not valid JSON.');
    }
  }
  const rawPuts = isObject(parsed) ? parsed.puts : undefined;
  if (parsed !== undefined && !Array.isArray(rawPuts)) problems.push('Request body must be a JSON object with a "puts" array.');

  const puts: TrackPut[] = [];
  const list: readonly unknown[] = Array.isArray(rawPuts) ? rawPuts : [];
  for (let i = 0; i < list.length; i++) {
    const raw = list[i];
    if (typeof raw !== 'object' || raw === null || Array.isArray(raw)) {
      problems.push(`puts[${i}] must be a JSON object.`);
      continue;
    }
    const put = raw as Record<string, unknown>;
    const bidId = textField(put, 'bidid', i, problems);
    const bidder = textField(put, 'bidder', i, problems);
    const auctionId = textField(put, 'aid', i, problems);
    if (put.type === undefined || put.type === null) problems.push(`puts[${i}].type is required.`);
    else if (put.type !== 'xml') problems.push(`puts[${i}].type must be xml. Found ${describe(put.type)}`);
    const value = put.value;
    if (value === undefined || value === null) problems.push(`puts[${i}].value is required.`);
    else if (typeof value !== 'string') problems.push(`puts[${i}].value must be a string of VAST XML. Found ${describe(value)}`);
    const timestamp = integerField(put, 'timestamp', i, problems);
    const ttl = integerField(put, 'ttlseconds', i, problems);
    if (bidId && bidder && auctionId && typeof value === 'string' && put.type === 'xml' && timestamp !== undefined && ttl !== undefined) {
      puts.push({ bidId, bidder, auctionId, value, timestamp, ttlSeconds: Number(ttl) });
    }
  }
  if (problems.length > 0) throw new AppError(ErrorCode.BAD_REQUEST, problems.join('\n'));
  return { account: account as string, puts };
};
