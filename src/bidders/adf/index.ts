import type { AdapterModule } from '../adapter.js';
import { makeBids } from './make-bids.js';
import { makeRequests } from './make-requests.js';
import { adfParamsSchema } from './params-schema.js';

/**
 * The built-in aliases of `adf`, as Prebid Server registers them (`static/bidder-info/adform.yaml`
 * is `aliasOf: adf`, with the same GVL id and user sync): the registry offers `adform` as a bidder
 * code answering through this adapter, under its own name.
 */
export const ADF_ALIASES: readonly string[] = ['adform'];

/**
 * `adf`: Adform's OpenRTB endpoint, with the requests and bids of Prebid Server's adapter of that
 * name (also known as `adform`, see {@link ADF_ALIASES}). Every imp goes in one POST as it came,
 * with `mid` as its tag id and the first `priceType` as `ext.pt`; bids are typed by their
 * `ext.prebid.type`.
 */
export const adfAdapter: AdapterModule = {
  info: {
    // Prebid Server's default, Adform's Europe data centre (adx2 for the Americas, adx3 for APAC).
    endpoint: 'https://adx.adform.net/adx/openrtb',
    mediaTypes: { site: ['banner', 'native', 'video'], app: ['banner', 'native', 'video'] },
    gvlVendorId: 50,
    paramsSchema: adfParamsSchema,
    // Prebid Server's static/bidder-info/adf.yaml (OpenRTB 2.5, no compression).
    maintainer: { email: 'scope.sspp@adform.com' },
    // Prebid Server's static/bidder-info/adf.yaml.
    userSync: { redirect: { url: 'https://c1.adform.net/cookie?redirect_url={{.RedirectURL}}', userMacro: '$UID' } },
  },
  adapter: {
    makeRequests,
    makeBids: (_request, _call, response) => makeBids(response),
  },
};
