import type { AllowActivitiesSetting } from './activities.js';
import type { EnforceAlgo } from './tcf-enforcement.js';

/** The channel an auction came through, as Prebid Server's `channel_enabled` switches name them. */
export type Channel = 'amp' | 'web' | 'app' | 'dooh';

export type ChannelSwitches = Readonly<Partial<Record<Channel, boolean>>>;

/** The server's privacy settings (`privacy` in the configuration), in the shape the rules read. */
export interface HostPrivacySettings {
  readonly gdpr: {
    /** Off: GDPR is never enforced, whatever the request or account says. */
    readonly enabled: boolean;
    /** Per channel; a channel left out follows `enabled`. */
    readonly channelEnabled: ChannelSwitches;
    /** Whether GDPR applies when the request does not say (`regs.gdpr`, GPP sections). */
    readonly defaultValue: 0 | 1;
    readonly enforceAlgo: EnforceAlgo;
    /** Bidder codes for which purposes and special feature 1 are not enforced. */
    readonly vendorExceptions: readonly string[];
  };
  readonly ccpa: { readonly enforce: boolean; readonly channelEnabled: ChannelSwitches };
  readonly lmt: { readonly enforce: boolean };
  readonly ipv4KeepBits: number;
  readonly ipv6KeepBits: number;
  readonly allowActivities: AllowActivitiesSetting;
}

/** An account's `privacy` settings: every key optional; a key set replaces the host's. */
export interface AccountPrivacySettings {
  readonly gdpr?: {
    readonly enabled?: boolean;
    readonly channel_enabled?: ChannelSwitches;
    readonly enforce_algo?: EnforceAlgo;
    readonly vendor_exceptions?: readonly string[];
  };
  readonly ccpa?: { readonly enabled?: boolean; readonly channel_enabled?: ChannelSwitches };
  readonly allowactivities?: AllowActivitiesSetting;
  readonly ipv4?: { readonly anon_keep_bits?: number };
  readonly ipv6?: { readonly anon_keep_bits?: number };
}

/** The switches in force for one auction: the account's over the host's. */
export interface EffectivePrivacy {
  readonly gdprEnabled: boolean;
  readonly gdprDefault: 0 | 1;
  readonly enforceAlgo: EnforceAlgo;
  readonly vendorExceptions: ReadonlySet<string>;
  readonly ccpaEnforced: boolean;
  readonly lmtEnforced: boolean;
  readonly ipv4KeepBits: number;
  readonly ipv6KeepBits: number;
}

/**
 * As Prebid Server resolves them: the host's `gdpr.enabled` is a master switch; then the
 * account's switch for the channel, else the account's `enabled`, else the host's channel switch.
 * CCPA likewise over the host's `ccpa.enforce`.
 */
export const effectivePrivacy = (host: HostPrivacySettings, account: AccountPrivacySettings | undefined, channel: Channel): EffectivePrivacy => {
  const a = account ?? {};
  const gdprEnabled = host.gdpr.enabled && (a.gdpr?.channel_enabled?.[channel] ?? a.gdpr?.enabled ?? host.gdpr.channelEnabled[channel] ?? true);
  const ccpaEnforced = a.ccpa?.channel_enabled?.[channel] ?? a.ccpa?.enabled ?? host.ccpa.channelEnabled[channel] ?? host.ccpa.enforce;
  return {
    gdprEnabled,
    gdprDefault: host.gdpr.defaultValue,
    enforceAlgo: a.gdpr?.enforce_algo ?? host.gdpr.enforceAlgo,
    vendorExceptions: new Set(a.gdpr?.vendor_exceptions ?? host.gdpr.vendorExceptions),
    ccpaEnforced,
    lmtEnforced: host.lmt.enforce,
    ipv4KeepBits: a.ipv4?.anon_keep_bits ?? host.ipv4KeepBits,
    ipv6KeepBits: a.ipv6?.anon_keep_bits ?? host.ipv6KeepBits,
  };
};
