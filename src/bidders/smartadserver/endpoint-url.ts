import { posix } from 'node:path';

// scheme ":" ["//" authority] path ["?" query] ["#" fragment], as Go's url.Parse splits a URL.
const URL_PARTS = /^([A-Za-z][A-Za-z0-9+.-]*):(?:\/\/([^/?#]*))?([^?#]*)(?:\?([^#]*))?(?:#(.*))?$/s;
// Go's url.Parse refuses ASCII control characters anywhere, and a space in the host.
const hasControl = (s: string): boolean => [...s].some((c) => c.charCodeAt(0) < 0x20 || c.charCodeAt(0) === 0x7f);

/**
 * The URL Equativ is called at, built as Prebid Server's adapter builds it from a base URL:
 * `<base>/ortb` (the base's query kept) for programmatic guaranteed, else `<base>/api/bid` with
 * the query replaced by `callerId=5`. The path is joined and cleaned as Go's `path.Join` does.
 * `undefined` when the base has no scheme or no host, or Go could not parse it.
 */
export const smartEndpointUrl = (base: string, programmaticGuaranteed: boolean): string | undefined => {
  if (hasControl(base)) return undefined;
  const parts = URL_PARTS.exec(base);
  if (parts === null) return undefined;
  const [, scheme, authority, path, query, fragment] = parts;
  // The host is what follows the user info; an empty one is no host.
  const host = authority === undefined ? '' : authority.slice(authority.lastIndexOf('@') + 1);
  if (host === '' || host.includes(' ')) return undefined;
  const joined = posix.join(path ?? '', programmaticGuaranteed ? 'ortb' : 'api/bid');
  // Go writes a slash between a host and a relative path.
  const absolute = joined.startsWith('/') ? joined : `/${joined}`;
  const search = programmaticGuaranteed ? (query !== undefined && query !== '' ? `?${query}` : '') : '?callerId=5';
  return `${scheme!.toLowerCase()}://${authority}${absolute}${search}${fragment !== undefined && fragment !== '' ? `#${fragment}` : ''}`;
};
