import { AppError, ErrorCode } from '../core/app-error.js';

/** A valid `/event` query. */
export interface EventRequest {
  readonly type: 'win' | 'imp';
  readonly account: string;
  readonly bidId: string;
  readonly bidder: string;
  /** `b` (or absent): blank 200; `i`: a 1×1 PNG. */
  readonly format: 'blank' | 'image';
  /** `x`: false (`x=0`) answers without telling analytics. */
  readonly analytics: boolean;
  readonly timestamp?: number;
  readonly integration?: string;
  readonly auctionId?: string;
}

const INTEGRATION = /^[A-Za-z0-9_-]{1,64}$/;
const DIGITS = /^\d{1,16}$/;

const first = (v: unknown): string | undefined => {
  const s = Array.isArray(v) ? (v[0] as unknown) : v;
  return typeof s === 'string' ? s : undefined;
};

/** Quotes a caller's value back in a message, shortened so a huge parameter is not echoed whole. */
const shown = (s: string): string => `'${s.length > 64 ? `${s.slice(0, 61)}...` : s}'`;

/**
 * Validates the query of `GET /event`; throws `BAD_REQUEST` listing every problem, one per line.
 * Required: `t` (win|imp), `b`, `a`, `bidder`; optional: `f` (b|i), `ts` (integer ms), `x` (1|0,
 * default 1), `int` (integration), `aid` (auction id). Empty values count as missing.
 */
export const parseEventQuery = (query: Readonly<Record<string, unknown>>): EventRequest => {
  const problems: string[] = [];
  const get = (name: string): string | undefined => {
    const v = first(query[name]);
    return v === '' ? undefined : v;
  };

  const t = get('t');
  if (t === undefined) problems.push("Parameter 't' (event type) is required: win or imp.");
  else if (t !== 'win' && t !== 'imp') problems.push(`Parameter 't' must be win or imp. Found ${shown(t)}`);

  const b = get('b');
  if (b === undefined) problems.push("Parameter 'b' (bid id) is required.");
  const a = get('a');
  if (a === undefined) problems.push("Parameter 'a' (account id) is required.");
  const bidder = get('bidder');
  if (bidder === undefined) problems.push("Parameter 'bidder' (bidder code) is required.");

  const f = get('f');
  if (f !== undefined && f !== 'b' && f !== 'i') problems.push(`Parameter 'f' must be b (blank) or i (image). Found ${shown(f)}`);

  const ts = get('ts');
  const timestamp = ts !== undefined && DIGITS.test(ts) ? Number(ts) : undefined;
  if (ts !== undefined && timestamp === undefined) problems.push(`Parameter 'ts' must be a timestamp in milliseconds (digits only). Found ${shown(ts)}`);

  const x = get('x');
  if (x !== undefined && x !== '0' && x !== '1') problems.push(`Parameter 'x' must be 1 (record) or 0 (do not record). Found ${shown(x)}`);

  const integration = get('int');
  if (integration !== undefined && !INTEGRATION.test(integration)) {
    problems.push(`Parameter 'int' must be 1 to 64 letters, digits, '-' or '_'. Found ${shown(integration)}`);
  }
  const auctionId = get('aid');

  if (problems.length > 0) throw new AppError(ErrorCode.BAD_REQUEST, problems.join('\n'));
  return {
    type: t as 'win' | 'imp',
    account: a as string,
    bidId: b as string,
    bidder: bidder as string,
    format: f === 'i' ? 'image' : 'blank',
    analytics: x !== '0',
    ...(timestamp !== undefined ? { timestamp } : {}),
    ...(integration !== undefined ? { integration } : {}),
    ...(auctionId !== undefined ? { auctionId } : {}),
  };
};
