import type { AdapterModule } from '../adapter.js';
import { makeBids } from './make-bids.js';
import { makeRequests } from './make-requests.js';
import { smartadserverParamsSchema } from './params-schema.js';

const MEDIA_TYPES = ['banner', 'video', 'native', 'audio'] as const;

/**
 * `smartadserver`: Equativ (formerly Smart AdServer), with the requests and bids of Prebid
 * Server's adapter of that name. Every readable imp goes in one POST, its ids in `imp.ext`, the
 * network id as `site.publisher.id`; programmatic guaranteed imps send the call to Equativ's PG
 * host. Bids are typed by `mtype`, in USD.
 */
export const smartadserverAdapter: AdapterModule = {
  info: {
    endpoint: 'https://ssb-global.smartadserver.com',
    mediaTypes: { site: [...MEDIA_TYPES], app: [...MEDIA_TYPES] },
    // Prebid Server's static/bidder-info/smartadserver.yaml (OpenRTB 2.5, gzip request bodies).
    capabilities: { site: [...MEDIA_TYPES], app: [...MEDIA_TYPES] },
    gvlVendorId: 45,
    paramsSchema: smartadserverParamsSchema,
    maintainer: { email: 'supply-partner-integration@equativ.com' },
    endpointCompression: 'gzip',
    userSync: {
      redirect: {
        url: 'https://ssbsync-global.smartadserver.com/api/sync?callerId=5&gdpr={{.GDPR}}&gdpr_consent={{.GDPRConsent}}&us_privacy={{.USPrivacy}}&redirectUri={{.RedirectURL}}',
        userMacro: '[ssb_sync_pid]',
      },
    },
  },
  adapter: {
    makeRequests,
    makeBids: (_request, _call, response) => makeBids(response),
  },
};
