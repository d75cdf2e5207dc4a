import type { BidRequest } from '../../openrtb/types.js';
import type { BidderError, RequestContext, RequestData } from '../adapter.js';

/**
 * One POST of the whole request, as it came, to the endpoint: Criteo reads the bidder params in
 * `imp[].ext.bidder` itself, so the adapter checks nothing and never fails. No headers of its own.
 */
export const makeRequests = (request: BidRequest, context: RequestContext): { requests: RequestData[]; errors: BidderError[] } => ({
  requests: [
    {
      method: 'POST',
      uri: context.endpoint,
      body: JSON.stringify(request),
      headers: {},
      // Go lists every imp id, an empty one included.
      impIds: (Array.isArray(request.imp) ? request.imp : []).map((imp) => String(imp?.id ?? '')),
    },
  ],
  errors: [],
});
