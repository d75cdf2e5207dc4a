import { withGoQueryParam } from '../go-url.js';

/**
 * Media.net's endpoint as Prebid Server builds it: the host's extra info (a URL naming this
 * server to Media.net) added as the `src` query parameter. The query is re-encoded the way Go's
 * `url.Values` does it: pairs that do not decode (a bad `%` escape, a `;`) are dropped, keys
 * sorted, each key and value query-escaped (a space as `+`). The rest of the URL is kept as is.
 */

/** `endpoint` with `src=<extraInfo>` added to its query (Go's `Values.Add`); `endpoint` unchanged when `extraInfo` is empty. */
export const medianetEndpoint = (endpoint: string, extraInfo: string): string => (extraInfo === '' ? endpoint : withGoQueryParam(endpoint, 'src', extraInfo, 'add'));
