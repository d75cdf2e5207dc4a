/** The user info of what looks like a URL: scheme, `//`, then all up to the last `@` before the path. */
const USER_INFO = /^([A-Za-z][A-Za-z0-9+.-]*:\/\/)[^/?#]*@/;

/**
 * `s` as logs may show it when it is a URL with credentials: a password becomes `redacted` (the
 * user name stays, it tells which account is used), and a user name without a password, which is
 * how tokens are often passed (`https://<token>@host/`), becomes `redacted` itself. Text that
 * starts like such a URL but does not parse has its whole user info masked. Any other string
 * comes back unchanged.
 */
export const redactUrlCredentials = (s: string): string => {
  // Most strings (every config value goes through here) are no URL with credentials: skip parsing.
  if (!s.includes('@') || !s.includes('://')) return s;
  try {
    const u = new URL(s);
    if (u.password !== '') u.password = 'redacted';
    else if (u.username !== '') u.username = 'redacted';
    else return s;
    return u.toString();
  } catch {
    // Not a URL as written (a space in the host, say), yet the user info may still be a secret.
    return s.replace(USER_INFO, '$1redacted@');
  }
};

