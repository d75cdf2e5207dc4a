import { redactUrlCredentials } from '../core/url-credentials.js';

const SECRET_KEY = /(^|[-_])(password|api[-_]key|secret|token)$/i;

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
