import type { AdapterModule } from '../adapter.js';
import { makeBids } from './make-bids.js';
import { makeRequests } from './make-requests.js';
import { kargoParamsSchema } from './params-schema.js';

/**
 * `kargo`: Kargo's OpenRTB endpoint, with the requests and bids of Prebid Server's adapter of that
 * name. The whole request goes in one POST as it came; bids are typed by their `ext.mediaType`
 * (video, native, else banner).
 */
export const kargoAdapter: AdapterModule = {
  info: {
    endpoint: 'https://krk2.kargo.com/api/v1/openrtb',
    mediaTypes: { site: ['banner', 'video', 'native'], app: ['banner', 'video', 'native'] },
    gvlVendorId: 972,
    paramsSchema: kargoParamsSchema,
    // Prebid Server's static/bidder-info/kargo.yaml.
    maintainer: { email: 'kraken@kargo.com' },
    openrtbVersion: '2.6',
    endpointCompression: 'gzip',
    userSync: {
      redirect: {
        url: 'https://crb.kargo.com/api/v1/dsync/PrebidServer?gdpr={{.GDPR}}&gdpr_consent={{.GDPRConsent}}&us_privacy={{.USPrivacy}}&gpp={{.GPP}}&gpp_sid={{.GPPSID}}&r={{.RedirectURL}}',
        userMacro: '$UID',
      },
    },
  },
  adapter: {
    makeRequests,
    makeBids: (_request, _call, response) => makeBids(response),
  },
};
