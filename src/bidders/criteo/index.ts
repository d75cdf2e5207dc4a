import type { AdapterModule } from '../adapter.js';
import { makeBids } from './make-bids.js';
import { makeRequests } from './make-requests.js';
import { criteoParamsSchema } from './params-schema.js';

const SYNC_QUERY = 'gdprapplies={{.GDPR}}&gdpr={{.GDPRConsent}}&ccpa={{.USPrivacy}}&gpp={{.GPP}}&gpp_sid={{.GPPSID}}&redir={{.RedirectURL}}&profile=230';

/**
 * `criteo`: Criteo's Prebid Server endpoint, with the requests and bids of Prebid Server's adapter
 * of that name. The request goes whole, as it came, in one POST; bids are typed by their
 * `ext.prebid.type`, and the answer's `ext.igi` carries Protected Audience auction configs.
 */
export const criteoAdapter: AdapterModule = {
  info: {
    endpoint: 'https://ssp-bidder.criteo.com/openrtb/pbs/auction/request?profile=230',
    mediaTypes: { site: ['banner', 'video', 'native'], app: ['banner', 'video', 'native'] },
    // Prebid Server's static/bidder-info/criteo.yaml.
    capabilities: { site: ['banner', 'video', 'native'], app: ['banner', 'video', 'native'] },
    gvlVendorId: 91,
    paramsSchema: criteoParamsSchema,
    openrtbVersion: '2.6',
    maintainer: { email: 'prebid@criteo.com' },
    userSync: {
      redirect: { url: `https://ssp-sync.criteo.com/user-sync/redirect?${SYNC_QUERY}`, userMacro: '${CRITEO_USER_ID}' },
      iframe: { url: `https://ssp-sync.criteo.com/user-sync/iframe?${SYNC_QUERY}`, userMacro: '${CRITEO_USER_ID}' },
    },
  },
  adapter: {
    makeRequests,
    makeBids: (_request, _call, response) => makeBids(response),
  },
};
