import type { BidRequest } from '../../openrtb/types.js';
import type { BidderError, RequestContext, RequestData } from '../adapter.js';

/**
 * One POST to the endpoint carrying the request exactly as the bidder received it, every imp
 * included (Kargo reads its params from `imp[].ext.bidder` itself). No headers of its own, as
 * Prebid Server's adapter sets none; never an error.
 */
export const makeRequests = (request: BidRequest, context: RequestContext): { requests: RequestData[]; errors: BidderError[] } => ({
  requests: [{ method: 'POST', uri: context.endpoint, body: JSON.stringify(request), headers: {}, impIds: request.imp.map((imp) => imp.id) }],
  errors: [],
});
