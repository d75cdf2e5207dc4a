import type { AdapterModule } from '../adapter.js';
import { makeBids } from './make-bids.js';
import { makeRequests } from './make-requests.js';
import { rubiconParamsSchema } from './params-schema.js';

/**
 * `rubicon`: Magnite's XAPI exchange, with the requests and bids of Prebid Server's adapter of
 * that name. Each imp goes in its own POST, the request rewritten into Rubicon's `rp` exts, with
 * the host's XAPI credentials (Basic auth) and tracker (`tk_xint`). Shipped disabled, as in
 * Prebid Server: a host enables it with its regional endpoint and XAPI credentials.
 */
export const rubiconAdapter: AdapterModule = {
  info: {
    // Prebid Server's placeholder: REGION is one of exapi-us-east, exapi-us-west, exapi-apac, exapi-eu.
    endpoint: 'https://REGION.rubiconproject.com/a/api/exchange',
    mediaTypes: { site: ['banner', 'video', 'native'], app: ['banner', 'video', 'native'] },
    capabilities: { app: ['banner', 'video', 'native'], site: ['banner', 'video', 'native'] },
    gvlVendorId: 52,
    paramsSchema: rubiconParamsSchema,
    // Prebid Server's static/bidder-info/rubicon.yaml: OpenRTB 2.6, gzip bodies, shipped off, no sync URL.
    openrtbVersion: '2.6',
    endpointCompression: 'gzip',
    disabled: true,
    maintainer: { email: 'header-bidding@rubiconproject.com' },
  },
  adapter: { makeRequests, makeBids },
};
