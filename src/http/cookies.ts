import { UIDS_COOKIE_NAME } from '../usersync/uids-cookie.js';

/**
 * The value of cookie `name` in a `Cookie` request header, `undefined` when absent: the first
 * occurrence wins, as browsers send the most specific cookie first. Values are taken as sent
 * (no percent-decoding: the `uids` cookie is base64url); surrounding quotes are dropped.
 */
export const cookieValue = (header: string | readonly string[] | undefined, name: string): string | undefined => {
  if (header === undefined) return undefined;
  const text = typeof header === 'string' ? header : header.join('; ');
  for (const part of text.split(';')) {
    const eq = part.indexOf('=');
    if (eq < 0 || part.slice(0, eq).trim() !== name) continue;
    const value = part.slice(eq + 1).trim();
    return value.length >= 2 && value.startsWith('"') && value.endsWith('"') ? value.slice(1, -1) : value;
  }
  return undefined;
};

/** The caller's `uids` cookie as the auction takes it (`CallerInfo.uidsCookie`): present only when sent. */
export const uidsCookieOf = (header: string | undefined): { uidsCookie?: string } => {
  const value = cookieValue(header, UIDS_COOKIE_NAME);
  return value === undefined ? {} : { uidsCookie: value };
};
