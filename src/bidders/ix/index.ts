import type { AdapterModule } from '../adapter.js';
import { makeBids } from './make-bids.js';
import { makeRequests } from './make-requests.js';
import { ixParamsSchema } from './params-schema.js';

/**
 * `ix`: Index Exchange, with the requests and bids of Prebid Server's adapter of that name. All
 * imps go in one POST with the publisher's site id and `ext.ixdiag` diagnostics; bids are typed by
 * `mtype`, `ext.prebid.type` or their imp, native markup gets its impression trackers merged, and
 * the answer's Protected Audience configs are passed on. Shipped off, without an endpoint: a host
 * turns it on by configuring `adapters.ix.endpoint`.
 */
export const ixAdapter: AdapterModule = {
  info: {
    // Prebid Server's static/bidder-info/ix.yaml names no endpoint: the host's config must.
    endpoint: '',
    mediaTypes: { site: ['banner', 'video', 'native', 'audio'], app: ['banner', 'video', 'native', 'audio'] },
    capabilities: { app: ['banner', 'video', 'native', 'audio'], site: ['banner', 'video', 'native', 'audio'] },
    gvlVendorId: 10,
    paramsSchema: ixParamsSchema,
    openrtbVersion: '2.6',
    disabled: true,
    maintainer: { email: 'pdu-supply-prebid@indexexchange.com' },
    // Prebid Server's static/bidder-info/ix.yaml; Index Exchange appends the user id itself, so no macro.
    userSync: {
      redirect: {
        url: 'https://ssum.casalemedia.com/usermatchredir?s=194962&gdpr={{.GDPR}}&gdpr_consent={{.GDPRConsent}}&us_privacy={{.USPrivacy}}&gpp={{.GPP}}&gppsid={{.GPPSID}}&cb={{.RedirectURL}}',
        userMacro: '',
      },
      iframe: {
        url: 'https://ssum-sec.casalemedia.com/usermatch?s=184674&gdpr={{.GDPR}}&gdpr_consent={{.GDPRConsent}}&us_privacy={{.USPrivacy}}&gpp={{.GPP}}&gppsid={{.GPPSID}}&cb={{.RedirectURL}}',
        userMacro: '',
      },
    },
  },
  adapter: { makeRequests, makeBids },
};
