/**
 * `s` as logs may show it when it is a URL with credentials: a password becomes `redacted` (the
 * user name stays, it tells which account is used), and a user name without a password, which is
 * how tokens are often passed (`https://<token>@host/`), becomes `redacted` itself. Any other
 * string, URL or not, comes back unchanged.
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
    return s;
  }
};
