import { redactUrlCredentials } from '../core/url-credentials.js';

const SECRET_KEY = /(^|[-_])(password|api[-_]key|secret|token)$/i;

/** Whether a key holds a secret (a password, an API key, a token): its value is never shown. */
export const isSecretKey = (key: string): boolean => SECRET_KEY.test(key);

/**
 * A copy of the config safe to log: secret-named keys become `[redacted]` (when set) and
 * credentials inside URLs are masked.
 */
export const redactConfig = (value: unknown): unknown => {
  if (Array.isArray(value)) return value.map(redactConfig);
  if (typeof value === 'string') return redactUrlCredentials(value);
  if (typeof value !== 'object' || value === null) return value;
  const out: Record<string, unknown> = {};
  for (const [k, v] of Object.entries(value)) {
    out[k] = SECRET_KEY.test(k) && v !== '' && v !== undefined ? '[redacted]' : redactConfig(v);
  }
  return out;
};

/** Longest value text a problem shows; a longer one is cut, with `…` saying so. */
const MAX_VALUE_TEXT = 80;

/**
 * How a problem shows the value it is about: as JSON (so `"8000"` and `8000` differ), a
 * secret-named key's value as `[redacted]`, credentials inside URLs masked, cut to 80 characters.
 * `key` is the last key of the value's path.
 */
export const valueText = (key: string, value: unknown): string => {
  if (SECRET_KEY.test(key) && value !== '' && value !== undefined) return '[redacted]';
  const text = JSON.stringify(redactConfig(value)) ?? String(value);
  return text.length <= MAX_VALUE_TEXT ? text : `${text.slice(0, MAX_VALUE_TEXT - 1)}…`;
};
