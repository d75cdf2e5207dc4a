import { BlockList, isIP } from 'node:net';

/**
 * The address of the client a request comes from, given the address of the peer that connected
 * (`socket.remoteAddress`) and the request's `X-Forwarded-For`.
 */
export type ClientAddress = (peerAddress: string | undefined, forwardedFor: string | readonly string[] | undefined) => string;

/** Whether an address is one of the trusted proxies. */
export type TrustedProxyCheck = (address: string) => boolean;

/** Names for well-known ranges, as proxy-addr (and so Fastify's `trustProxy`) reads them. */
const NAMED_RANGES: Readonly<Record<string, readonly string[]>> = {
  loopback: ['127.0.0.1/8', '::1/128'],
  linklocal: ['169.254.0.0/16', 'fe80::/10'],
  uniquelocal: ['10.0.0.0/8', '172.16.0.0/12', '192.168.0.0/16', 'fc00::/7'],
};

/**
 * Reads `server.trusted_proxies`: addresses (`10.0.0.7`, `::1`), CIDR ranges (`10.0.0.0/8`,
 * `fd00::/8`) and the names `loopback`, `linklocal`, `uniquelocal`. Throws on anything else, so a
 * typo is an error at start, not a proxy silently untrusted.
 */
export const trustedProxyCheck = (entries: readonly string[]): TrustedProxyCheck => {
  const list = new BlockList();
  for (const entry of entries.flatMap((e) => NAMED_RANGES[e] ?? [e])) {
    const [address = '', prefix, extra] = entry.split('/');
    const family = isIP(address);
    const bits = prefix === undefined ? (family === 4 ? 32 : 128) : Number(prefix);
    if (family === 0 || extra !== undefined || !/^\d{1,3}$/.test(String(bits)) || bits > (family === 4 ? 32 : 128)) {
      throw new Error(`server.trusted_proxies: "${entry}" is not an IP address, a CIDR range or one of ${Object.keys(NAMED_RANGES).join(', ')}`);
    }
    list.addSubnet(address, bits, family === 4 ? 'ipv4' : 'ipv6');
  }
  return (address) => {
    const family = isIP(address);
    return family !== 0 && list.check(address, family === 4 ? 'ipv4' : 'ipv6');
  };
};

/**
 * The client's address: the peer's, unless the peer is a trusted proxy; then `X-Forwarded-For`
 * is read from its right end (the hop the proxy added) leftwards, and the first address that is
 * not a trusted proxy is the client's (the leftmost if every one is). Addresses a client wrote
 * itself further left are never believed. This is proxy-addr's rule, so it agrees with Fastify's
 * `req.ip` under the same `trustProxy` (`server.ts` gives Fastify this same check).
 *
 * With no trusted proxies it is the peer's address and reads no header.
 */
export const createClientAddress = (isTrusted: TrustedProxyCheck | undefined): ClientAddress => {
  if (isTrusted === undefined) return (peer) => peer ?? '';
  return (peer, forwardedHeader) => {
    let address = peer ?? '';
    if (forwardedHeader === undefined || !isTrusted(address)) return address;
    // node:http joins repeated X-Forwarded-For lines into one; an array is read the same way.
    const forwardedFor = typeof forwardedHeader === 'string' ? forwardedHeader : forwardedHeader.join(',');
    // Bounded by the header's length: each step moves `end` left past one comma.
    for (let end = forwardedFor.length; end > 0; ) {
      const comma = forwardedFor.lastIndexOf(',', end - 1);
      const hop = forwardedFor.slice(comma + 1, end).trim();
      end = comma;
      // An empty entry (`a,,b`) names no hop.
      if (hop === '') continue;
      address = hop;
      if (!isTrusted(hop)) return hop;
    }
    return address;
  };
};
