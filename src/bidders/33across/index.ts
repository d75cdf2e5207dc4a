import type { AdapterModule } from '../adapter.js';
import { makeBids } from './make-bids.js';
import { makeRequests } from './make-requests.js';
import { thirtyThreeAcrossParamsSchema } from './params-schema.js';

/**
 * `33across`: 33Across, with the requests and bids of Prebid Server's adapter of that name. Imps
 * go in one POST per product and zone, their ext replaced by `ext.ttx`, the request ext by the
 * list of callers 33Across reads. Site traffic only (banner, video); bids are typed by
 * `ext.ttx.mediaType`, in USD.
 */
export const thirtyThreeAcrossAdapter: AdapterModule = {
  info: {
    endpoint: 'https://ssc.33across.com/api/v1/s2s',
    mediaTypes: { site: ['banner', 'video'], app: [] },
    // Prebid Server's static/bidder-info/33across.yaml (OpenRTB 2.5, no compression, site only).
    capabilities: { site: ['banner', 'video'] },
    gvlVendorId: 58,
    paramsSchema: thirtyThreeAcrossParamsSchema,
    maintainer: { email: 'headerbidding@33across.com' },
    userSync: {
      iframe: {
        url: 'https://ssc-cms.33across.com/ps/?m=xch&rt=html&gdpr={{.GDPR}}&gdpr_consent={{.GDPRConsent}}&us_privacy={{.USPrivacy}}&ru={{.RedirectURL}}&id=zzz000000000002zzz',
        userMacro: '33XUSERID33X',
      },
    },
  },
  adapter: {
    makeRequests,
    makeBids: (_request, _call, response) => makeBids(response),
  },
};
