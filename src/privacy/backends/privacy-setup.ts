import type { Clock } from '../../core/clock.js';
import type { Logger } from '../../core/logger.js';
import type { AllowActivitiesSetting } from '../activities.js';
import { createPrivacyEnforcer } from '../enforcer.js';
import type { PrivacyEnforcer } from '../enforcer.js';
import type { ChannelSwitches, HostPrivacySettings } from '../settings.js';
import type { EnforceAlgo } from '../tcf-enforcement.js';
import { createGppDecoder } from '../gpp.js';
import { createTcfDecoder } from '../tcf-consent.js';
import { createUserSyncPrivacy } from '../user-sync.js';
import type { UserSyncPrivacy } from '../user-sync.js';
import { noVendorLists } from '../vendor-list.js';
import { createSyncPrivacyChecker } from '../sync-permissions.js';
import type { SyncPrivacyChecker } from '../sync-permissions.js';
import { createVendorLists } from './vendor-lists.js';

/** The configuration's `privacy` section, as `src/config/schema.ts` defines it. */
export interface PrivacyConfigSlice {
  readonly gdpr: {
    readonly enabled: boolean;
    readonly channel_enabled: ChannelSwitches;
    readonly default_value: 0 | 1;
    readonly host_vendor_id: number;
    readonly enforce_algo: EnforceAlgo;
    readonly vendor_exceptions: readonly string[];
    readonly vendor_list: {
      readonly url: string;
      readonly archive_url: string;
      readonly file: string;
      readonly refresh_interval_ms: number;
      readonly fetch_timeout_ms: number;
      readonly retry_after_ms: number;
    };
  };
  readonly ccpa: { readonly enforce: boolean; readonly channel_enabled: ChannelSwitches };
  readonly lmt: { readonly enforce: boolean };
  readonly ipv4: { readonly anon_keep_bits: number };
  readonly ipv6: { readonly anon_keep_bits: number };
  readonly allowactivities: AllowActivitiesSetting;
  readonly max_consent_length: number;
}

/** Vendor list versions kept in memory (a full list is about 1 MB). */
const MAX_VENDOR_LIST_VERSIONS = 16;

/**
 * The privacy enforcer of the configuration, with its vendor lists (the file read and the URL
 * fetched before this resolves; neither failing stops the start), and `/setuid`'s checks on the
 * same lists. `close` stops the refresh.
 */
export const createPrivacyFromConfig = async (
  cfg: PrivacyConfigSlice,
  deps: { clock: Clock; logger: Logger },
): Promise<{ enforcer: PrivacyEnforcer; userSync: UserSyncPrivacy; sync: SyncPrivacyChecker; close(): Promise<void> }> => {
  const vl = cfg.gdpr.vendor_list;
  const vendorLists =
    vl.url === '' && vl.archive_url === '' && vl.file === ''
      ? noVendorLists
      : await createVendorLists({
          url: vl.url,
          archiveUrl: vl.archive_url,
          file: vl.file,
          refreshIntervalMs: vl.refresh_interval_ms,
          fetchTimeoutMs: vl.fetch_timeout_ms,
          retryAfterMs: vl.retry_after_ms,
          maxVersions: MAX_VENDOR_LIST_VERSIONS,
          clock: deps.clock,
          logger: deps.logger,
        });
  if (cfg.gdpr.enabled && cfg.gdpr.enforce_algo === 'full' && vendorLists.latest() === undefined && vl.archive_url === '') {
    deps.logger.warn({}, 'no GDPR vendor list is configured (privacy.gdpr.vendor_list): bidders are blocked wherever GDPR applies, as Prebid Server does without one');
  }
  const host: HostPrivacySettings = {
    gdpr: { enabled: cfg.gdpr.enabled, channelEnabled: cfg.gdpr.channel_enabled, defaultValue: cfg.gdpr.default_value, enforceAlgo: cfg.gdpr.enforce_algo, vendorExceptions: cfg.gdpr.vendor_exceptions },
    ccpa: { enforce: cfg.ccpa.enforce, channelEnabled: cfg.ccpa.channel_enabled },
    lmt: { enforce: cfg.lmt.enforce },
    ipv4KeepBits: cfg.ipv4.anon_keep_bits,
    ipv6KeepBits: cfg.ipv6.anon_keep_bits,
    allowActivities: cfg.allowactivities,
  };
  // One pair of bounded decoders for auctions and user syncs: a page's consent string serves all.
  const decoders = { tcf: createTcfDecoder({ maxLength: cfg.max_consent_length }), gpp: createGppDecoder({ maxLength: cfg.max_consent_length }) };
  const userSync = createUserSyncPrivacy({
    gdprEnabled: cfg.gdpr.enabled,
    gdprDefault: cfg.gdpr.default_value,
    enforceAlgo: cfg.gdpr.enforce_algo,
    hostVendorId: cfg.gdpr.host_vendor_id,
    allowActivities: cfg.allowactivities,
    vendorLists,
    decodeTcf: decoders.tcf,
    decodeGpp: decoders.gpp,
    maxWaitMs: vl.fetch_timeout_ms,
  });
  return {
    enforcer: createPrivacyEnforcer({ host, vendorLists, decoders }),
    userSync,
    sync: createSyncPrivacyChecker({ host, hostVendorId: cfg.gdpr.host_vendor_id, vendorLists, decoders }),
    close: () => vendorLists.close(),
  };
};
