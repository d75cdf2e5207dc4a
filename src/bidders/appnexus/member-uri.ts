import { withGoQueryParam } from '../go-url.js';

/**
 * AppNexus wants the selling member in the URL (`member_id=`). Prebid Server adds it with Go's
 * `url.Values`: the endpoint's query is parsed, `member_id` set (replacing any), and the whole
 * query written again sorted by key, with Go's escaping. That is redone here so an endpoint with a
 * query of its own gets the same URL as from Prebid Server.
 */
/** `endpoint` with `name=value` set in its query (any earlier `name` replaced), as Go's `url.Values` writes it. */
export const withQueryParam = (endpoint: string, name: string, value: string): string => withGoQueryParam(endpoint, name, value, 'set');
