import type { AdapterModule } from '../adapter.js';
import { makeBids } from './make-bids.js';
import { makeRequests } from './make-requests.js';
import { appnexusParamsSchema } from './params-schema.js';

/**
 * `appnexus`: AppNexus (Microsoft Curate / Xandr), with the requests and bids of Prebid Server's
 * adapter of that name. Imps go ten to a POST with their params in `imp.ext.appnexus`, the member
 * in the URL, and `ext.appnexus` saying where the request comes from; bids are typed by
 * `ext.appnexus.bid_ad_type` and get the IAB category of their brand category.
 */
export const appnexusAdapter: AdapterModule = {
  info: {
    endpoint: 'http://ib.adnxs.com/openrtb2',
    mediaTypes: { site: ['banner', 'video', 'native'], app: ['banner', 'video', 'native'] },
    gvlVendorId: 32,
    // Prebid Server's static/bidder-info/appnexus.yaml.
    maintainer: { email: 'prebid@microsoft.com' },
    capabilities: { app: ['banner', 'video', 'native'], site: ['banner', 'video', 'native'] },
    paramsSchema: appnexusParamsSchema,
    // Prebid Server's static/bidder-info/appnexus.yaml: ids are kept under `adnxs`.
    userSync: { key: 'adnxs', redirect: { url: 'https://ib.adnxs.com/getuid?{{.RedirectURL}}', userMacro: '$UID' } },
  },
  adapter: {
    makeRequests,
    makeBids: (_request, _call, response) => makeBids(response),
  },
};
