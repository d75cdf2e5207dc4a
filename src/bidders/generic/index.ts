import Type from 'typebox';
import type { AdapterModule } from '../adapter.js';
import { readOpenRtbBids } from '../openrtb-bids.js';

/**
 * `generic`: a plain OpenRTB 2.6 bidder. It receives the request for its imps as openbid built
 * it (its params in `imp[].ext.bidder`) at the configured endpoint, and answers a standard bid
 * response. Any configured bidder code can run it (`adapters.<code>: {adapter: generic, endpoint}`).
 */
export const genericAdapter: AdapterModule = {
  info: {
    endpoint: '',
    mediaTypes: { site: ['banner', 'video', 'audio', 'native'], app: ['banner', 'video', 'audio', 'native'] },
    // Prebid Server has no generic bidder: it sends what openbid builds, OpenRTB 2.6, on any channel.
    capabilities: { app: ['banner', 'video', 'audio', 'native'], site: ['banner', 'video', 'audio', 'native'], dooh: ['banner', 'video', 'audio', 'native'] },
    openrtbVersion: '2.6',
    // Any JSON object: what a generic bidder needs is its own business.
    paramsSchema: Type.Object({}, { additionalProperties: true }),
  },
  adapter: {
    makeRequests: (request, context) => ({
      requests: [
        {
          method: 'POST',
          uri: context.endpoint,
          body: JSON.stringify(request),
          headers: { 'content-type': 'application/json;charset=utf-8', accept: 'application/json', 'x-openrtb-version': '2.6' },
          impIds: request.imp.map((imp) => imp.id),
        },
      ],
      errors: [],
    }),
    makeBids: (request, _call, response) => readOpenRtbBids(response.body, request.imp),
  },
};
