import type { AdapterModule } from '../adapter.js';
import { makeBids } from './make-bids.js';
import { makeRequests } from './make-requests.js';
import { sovrnParamsSchema } from './params-schema.js';

/**
 * `sovrn`: Sovrn (Lijit), with the requests and bids of Prebid Server's adapter of that name. All
 * imps go in one POST, each with `tagid` from the params and their `bidfloor` when it has none;
 * the user travels in headers (user agent, IP, language, DNT, the `ljt_reader` cookie). Bids'
 * URL-encoded markup is decoded; a bid is video when its imp has a video, else banner.
 */
export const sovrnAdapter: AdapterModule = {
  info: {
    endpoint: 'http://pbs.lijit.com/rtb/bid?src=prebid_server',
    mediaTypes: { site: ['banner', 'video'], app: ['banner', 'video'] },
    gvlVendorId: 13,
    paramsSchema: sovrnParamsSchema,
    // Prebid Server's static/bidder-info/sovrn.yaml (OpenRTB 2.5).
    maintainer: { email: 'sovrnoss@sovrn.com' },
    endpointCompression: 'gzip',
    // Prebid Server's static/bidder-info/sovrn.yaml.
    userSync: {
      iframe: {
        url: 'https://ap.lijit.com/beacon/prebid-server/?gdpr={{.GDPR}}&gdpr_consent={{.GDPRConsent}}&us_privacy={{.USPrivacy}}&gpp={{.GPP}}&gpp_sid={{.GPPSID}}&url={{.RedirectURL}}',
        userMacro: '$UID',
      },
      redirect: { url: 'https://ap.lijit.com/pixel?redir={{.RedirectURL}}', userMacro: '$UID' },
    },
  },
  adapter: { makeRequests, makeBids },
};
