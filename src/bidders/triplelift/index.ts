import type { AdapterModule } from '../adapter.js';
import { makeBids } from './make-bids.js';
import { makeRequests } from './make-requests.js';
import { tripleliftParamsSchema } from './params-schema.js';

/**
 * `triplelift`: TripleLift, with the requests and bids of Prebid Server's adapter of that name.
 * Banner and video imps go in one POST, each with `tagid` from `inventoryCode` and its floor
 * (the params' `floor` first) in USD; bids are typed by `ext.triplelift_pb.format` and always in
 * USD.
 */
export const tripleliftAdapter: AdapterModule = {
  info: {
    endpoint: 'https://tlx.3lift.com/s2s/auction?sra=1&supplier_id=20',
    mediaTypes: { site: ['banner', 'video'], app: ['banner', 'video'] },
    gvlVendorId: 28,
    paramsSchema: tripleliftParamsSchema,
    // Prebid Server's static/bidder-info/triplelift.yaml.
    maintainer: { email: 'prebid@triplelift.com' },
    endpointCompression: 'gzip',
    openrtbVersion: '2.6',
    // Prebid Server's static/bidder-info/triplelift.yaml (TripleLift allowlists the redirect domain per host).
    userSync: {
      iframe: {
        url: 'https://eb2.3lift.com/sync?gdpr={{.GDPR}}&cmp_cs={{.GDPRConsent}}&us_privacy={{.USPrivacy}}&gpp={{.GPP}}&gpp_sid={{.GPPSID}}&redir={{.RedirectURL}}',
        userMacro: '$UID',
      },
      redirect: {
        url: 'https://eb2.3lift.com/getuid?gdpr={{.GDPR}}&cmp_cs={{.GDPRConsent}}&us_privacy={{.USPrivacy}}&gpp={{.GPP}}&gpp_sid={{.GPPSID}}&redir={{.RedirectURL}}',
        userMacro: '$UID',
      },
    },
  },
  adapter: {
    makeRequests,
    makeBids: (_request, _call, response) => makeBids(response),
  },
};
