import type { BidRequest } from '../../openrtb/types.js';
import type { BidderError, RequestContext, RequestData } from '../adapter.js';
import { medianetEndpoint } from './endpoint.js';

/**
 * Media.net takes the request as it came, every imp with its params in `imp.ext.bidder`, in one
 * POST to the endpoint with the host's extra info (`context.host.extraInfo`) as `src` in its query. Nothing is checked or
 * changed: the params schema has checked the params.
 */
export const makeRequests = (request: BidRequest, context: RequestContext): { requests: RequestData[]; errors: BidderError[] } => ({
  requests: [
    {
      method: 'POST',
      uri: medianetEndpoint(context.endpoint, context.host.extraInfo),
      body: JSON.stringify(request),
      headers: { 'Content-Type': 'application/json;charset=utf-8' },
      impIds: request.imp.map((imp) => imp.id),
    },
  ],
  errors: [],
});
