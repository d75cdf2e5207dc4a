/**
 * A failed bidder call as the caller reads it (`errors[bidder]`): the kind of failure, from the
 * error's code, never its message. Node's and undici's messages name the bidder's host, the
 * address it resolved to and the port (`connect ECONNREFUSED 10.0.0.7:8080`), which are the
 * host's business; Prebid Server passes its Go client's message on as it is, URL and address
 * included.
 */
const REASONS: ReadonlyMap<string, string> = new Map([
  ['ECONNREFUSED', 'connection refused'],
  ['ECONNRESET', 'connection reset'],
  ['EPIPE', 'connection reset'],
  ['UND_ERR_SOCKET', 'the connection closed before the answer ended'],
  ['UND_ERR_CLOSED', 'the connection closed before the answer ended'],
  ['ENOTFOUND', 'host name not found'],
  ['EAI_AGAIN', 'host name lookup failed'],
  ['ETIMEDOUT', 'connecting timed out'],
  ['UND_ERR_CONNECT_TIMEOUT', 'connecting timed out'],
  ['EHOSTUNREACH', 'host unreachable'],
  ['ENETUNREACH', 'network unreachable'],
  ['UND_ERR_HEADERS_OVERFLOW', 'the answer headers are too large'],
  ['Z_DATA_ERROR', 'the gzip answer does not inflate'],
  ['Z_BUF_ERROR', 'the gzip answer is cut short'],
  ['ERR_INVALID_URL', 'the endpoint URL is not valid'],
]);

/** The reason for an error thrown or reported by a bidder call, in openbid's words. */
export const networkFailureReason = (err: unknown): string => {
  const code = typeof (err as { code?: unknown } | undefined)?.code === 'string' ? (err as { code: string }).code : '';
  const known = REASONS.get(code);
  if (known !== undefined) return known;
  if (code.startsWith('HPE_')) return 'the answer is not valid HTTP';
  if (code.startsWith('ERR_TLS_') || code.startsWith('ERR_SSL_') || code.includes('CERT') || code.includes('SELF_SIGNED')) return 'the TLS handshake failed';
  return 'network error';
};
