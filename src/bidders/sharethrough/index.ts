import type { AdapterModule } from '../adapter.js';
import { makeBids } from './make-bids.js';
import { makeRequests } from './make-requests.js';
import { sharethroughParamsSchema } from './params-schema.js';

/**
 * `sharethrough`: Sharethrough's universal endpoint, with the requests and bids of Prebid
 * Server's adapter of that name. One POST per imp and media type, the placement key as
 * `imp.tagid`, the params' blocked lists in `bcat` / `badv`, the adapter's and server's versions in
 * `source.ext`; bids are typed by their `ext.prebid.type`, in USD.
 */
export const sharethroughAdapter: AdapterModule = {
  info: {
    endpoint: 'https://btlr.sharethrough.com/universal/v1?supply_id=FGMrCMMc',
    mediaTypes: { site: ['banner', 'video', 'native'], app: ['banner', 'video', 'native'] },
    // Prebid Server's static/bidder-info/sharethrough.yaml.
    capabilities: { site: ['banner', 'video', 'native'], app: ['banner', 'video', 'native'] },
    gvlVendorId: 80,
    paramsSchema: sharethroughParamsSchema,
    openrtbVersion: '2.6',
    maintainer: { email: 'pubgrowth.engineering@sharethrough.com' },
    userSync: {
      redirect: {
        url: 'https://match.sharethrough.com/FGMrCMMc/v1?gdpr={{.GDPR}}&gdpr_consent={{.GDPRConsent}}&us_privacy={{.USPrivacy}}&gpp={{.GPP}}&gpp_sid={{.GPPSID}}&redirectUri={{.RedirectURL}}',
        userMacro: '$UID',
      },
    },
  },
  adapter: {
    makeRequests,
    makeBids: (_request, _call, response) => makeBids(response),
  },
};
