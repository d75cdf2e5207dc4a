import type { AdapterModule } from '../adapter.js';
import { makeBids } from './make-bids.js';
import { makeRequests } from './make-requests.js';
import { openxParamsSchema } from './params-schema.js';

/**
 * `openx`: OpenX's Prebid endpoint, with the requests and bids of Prebid Server's adapter of that
 * name. Banner and native imps go in one POST, each video imp in a POST of its own; `unit` becomes
 * the tag id, `customFloor` the floor of an imp without one, `customParams` goes in imp.ext, and
 * the request's ext names the customer (`delDomain`, `platform`). Bids are typed by `mtype`, else
 * by their imp; OpenX's buyer ids become `ext.prebid.meta`.
 */
export const openxAdapter: AdapterModule = {
  info: {
    endpoint: 'http://rtb.openx.net/prebid',
    mediaTypes: { site: ['banner', 'video', 'native'], app: ['banner', 'video', 'native'] },
    gvlVendorId: 69,
    // Prebid Server's static/bidder-info/openx.yaml.
    maintainer: { email: 'prebid@openx.com' },
    capabilities: { app: ['banner', 'video', 'native'], site: ['banner', 'video', 'native'] },
    openrtbVersion: '2.6',
    endpointCompression: 'gzip',
    paramsSchema: openxParamsSchema,
    // Prebid Server's static/bidder-info/openx.yaml.
    userSync: {
      iframe: {
        url: 'https://u.openx.net/w/1.0/cm?id=891039ac-a916-42bb-a651-4be9e3b201da&ph=a3aece0c-9e80-4316-8deb-faf804779bd1&gdpr={{.GDPR}}&gdpr_consent={{.GDPRConsent}}&gpp={{.GPP}}&gpp_sid={{.GPPSID}}&r={{.RedirectURL}}',
        userMacro: '{OPENX_ID}',
      },
      redirect: { url: 'https://rtb.openx.net/sync/prebid?gdpr={{.GDPR}}&gdpr_consent={{.GDPRConsent}}&gpp={{.GPP}}&gpp_sid={{.GPPSID}}&r={{.RedirectURL}}', userMacro: '${UID}' },
    },
  },
  adapter: {
    makeRequests,
    makeBids: (request, _call, response) => makeBids(request, response),
  },
};
