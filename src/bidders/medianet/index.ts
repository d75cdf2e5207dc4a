import type { AdapterModule } from '../adapter.js';
import { makeBids } from './make-bids.js';
import { makeRequests } from './make-requests.js';
import { medianetParamsSchema } from './params-schema.js';

/**
 * Prebid Server's `extra_info` for Media.net (`static/bidder-info/medianet.yaml`): the URL sent
 * as `src` in the query of every call, telling Media.net which server calls it.
 */
export const MEDIANET_EXTRA_INFO = 'https://medianet.golang.pbs.com';

/**
 * `medianet`: Media.net's Prebid endpoint, with the requests and bids of Prebid Server's adapter
 * of that name. The request goes in one POST as it came, with the host's extra info
 * (`adapters.medianet.extra_info`, {@link MEDIANET_EXTRA_INFO} unless set; none when empty) as
 * `src`; bids are typed by `mtype`, always in USD.
 */
export const medianetAdapter: AdapterModule = {
  info: {
    endpoint: 'https://prebid-adapter.media.net/rtb/pb/prebids2s',
    mediaTypes: { site: ['banner', 'video', 'native'], app: ['banner', 'video', 'native'] },
    gvlVendorId: 142,
    paramsSchema: medianetParamsSchema,
    // Prebid Server's static/bidder-info/medianet.yaml.
    maintainer: { email: 'prebid-support@media.net' },
    endpointCompression: 'gzip',
    extraInfo: MEDIANET_EXTRA_INFO,
    openrtbVersion: '2.6',
    // Prebid Server's static/bidder-info/medianet.yaml.
    userSync: {
      iframe: {
        url: 'https://hbx.media.net/checksync.php?cid=8CUEHS6F9&cs=87&type=mpbc&cv=37&vsSync=1&uspstring={{.USPrivacy}}&gdpr={{.GDPR}}&gdprstring={{.GDPRConsent}}&gpp={{.GPP}}&gpp_sid={{.GPPSID}}&redirect={{.RedirectURL}}',
        userMacro: '<vsid>',
      },
      redirect: {
        url: 'https://cs.media.net/cksync.php?cs=1&type=pbs&ovsid=setstatuscode&bidder=medianet&gdpr={{.GDPR}}&gdpr_consent={{.GDPRConsent}}&us_privacy={{.USPrivacy}}&redirect={{.RedirectURL}}&gpp={{.GPP}}&gpp_sid={{.GPPSID}}',
        userMacro: '<vsid>',
      },
    },
  },
  adapter: {
    makeRequests,
    makeBids: (_request, _call, response) => makeBids(response),
  },
};
