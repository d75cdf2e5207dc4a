import type { AdapterModule } from '../adapter.js';
import { makeBids } from './make-bids.js';
import { makeRequests } from './make-requests.js';
import { pubmaticParamsSchema } from './params-schema.js';

/**
 * `pubmatic`: PubMatic's OpenWrap translator, with the requests and bids of Prebid Server's
 * adapter of that name. One POST carries every usable imp; the request's ext becomes PubMatic's
 * (`wrapper` with profile, version and the bidder code, `acat`, `marketplace`), each imp's ext its
 * targeting keys. Bids are typed by `mtype`; marketplace bids come back under their own seat.
 */
export const pubmaticAdapter: AdapterModule = {
  info: {
    endpoint: 'https://hbopenbid.pubmatic.com/translator?source=prebid-server',
    mediaTypes: { site: ['banner', 'video', 'native'], app: ['banner', 'video', 'native'] },
    gvlVendorId: 76,
    // Prebid Server's static/bidder-info/pubmatic.yaml.
    maintainer: { email: 'header-bidding@pubmatic.com' },
    capabilities: { app: ['banner', 'video', 'native'], site: ['banner', 'video', 'native'] },
    openrtbVersion: '2.6',
    endpointCompression: 'gzip',
    paramsSchema: pubmaticParamsSchema,
    // Prebid Server's static/bidder-info/pubmatic.yaml; its iframe sync appends the id to the redirect URL itself.
    userSync: {
      iframe: {
        url: 'https://ads.pubmatic.com/AdServer/js/user_sync.html?gdpr={{.GDPR}}&gdpr_consent={{.GDPRConsent}}&us_privacy={{.USPrivacy}}&predirect={{.RedirectURL}}',
        userMacro: '',
      },
      redirect: {
        url: 'https://image8.pubmatic.com/AdServer/ImgSync?p=159706&gdpr={{.GDPR}}&gdpr_consent={{.GDPRConsent}}&us_privacy={{.USPrivacy}}&pu={{.RedirectURL}}',
        userMacro: '#PMUID',
      },
    },
  },
  adapter: {
    makeRequests,
    makeBids: (_request, _call, response) => makeBids(response),
  },
};
