import type { MaybePromise } from '../core/maybe-promise.js';
import { ownValue } from '../core/own-keys.js';
import type { BidRequest } from '../openrtb/types.js';
import { createActivityControls } from './activities.js';
import type { ActivityControl, ActivityFacts, ActivityName, Component } from './activities.js';
import { createGppDecoder } from './gpp.js';
import { isEmptyPlan, scrubRequest } from './scrub.js';
import type { ScrubPlan } from './scrub.js';
import { effectivePrivacy } from './settings.js';
import type { AccountPrivacySettings, Channel, EffectivePrivacy, HostPrivacySettings } from './settings.js';
import { readPrivacySignals } from './signals.js';
import type { PrivacySignals, SignalDecoders } from './signals.js';
import { createTcfDecoder } from './tcf-consent.js';
import { ALLOW_ALL, DEFAULT_PERMISSIONS, gdprPermissions } from './tcf-enforcement.js';
import type { GdprPermissions } from './tcf-enforcement.js';
import type { VendorList, VendorLists } from './vendor-list.js';

/** A bidder as privacy sees it. */
export interface PrivacyBidder {
  /** The code of the request (an alias keeps its own). */
  readonly code: string;
  /** IAB GVL id from the adapter's info or `adapters.<code>.gvl_vendor_id`. */
  readonly gvlVendorId?: number;
}

/** What one bidder may have: nothing (not called), or its request with the plan's data taken out. */
export type BidderPrivacy =
  | { readonly allowed: false; readonly reason: string }
  | { readonly allowed: true; readonly plan: ScrubPlan; scrub(request: BidRequest): BidRequest };

/** The privacy decisions of one auction, its signals read once. */
export interface AuctionPrivacy {
  readonly signals: PrivacySignals;
  /** Request-level warnings (undecodable strings, conflicting signals). */
  readonly warnings: readonly string[];
  bidder(b: PrivacyBidder): BidderPrivacy;
  /** Whether the auction's record may go to the analytics module of this name (`reportAnalytics`). */
  reportAnalytics(module: string): boolean;
}

export interface AuctionPrivacyInput {
  readonly channel: Channel;
  /** `Sec-GPC: 1` on the incoming request. */
  readonly gpc: boolean;
  readonly account: AccountPrivacySettings | undefined;
  /** The longest wait, in ms, for a vendor list version fetched on first use. */
  readonly maxWaitMs: number;
}

/**
 * Privacy enforcement for auctions. `begin` answers directly unless a consent names a vendor
 * list version not yet held (then it waits for it, at most until `signal` aborts). Never rejects.
 */
export interface PrivacyEnforcer {
  begin(request: BidRequest, input: AuctionPrivacyInput): MaybePromise<AuctionPrivacy>;
}

export interface PrivacyEnforcerOptions {
  readonly host: HostPrivacySettings;
  readonly vendorLists: VendorLists;
  readonly decoders?: SignalDecoders;
}

const keepAll = { allowed: true, plan: {}, scrub: (r: BidRequest) => r } as const satisfies BidderPrivacy;

const isAllowed = (control: ActivityControl, activity: ActivityName, component: Component, facts: ActivityFacts): boolean =>
  control.unrestricted || control.allow(activity, component, facts);

export const createPrivacyEnforcer = (opts: PrivacyEnforcerOptions): PrivacyEnforcer => {
  const decoders = opts.decoders ?? { tcf: createTcfDecoder(), gpp: createGppDecoder() };
  const controlFor = createActivityControls(opts.host.allowActivities);

  const decide = (request: BidRequest, signals: PrivacySignals, eff: EffectivePrivacy, control: ActivityControl, list: VendorList | undefined, warnings: string[]): AuctionPrivacy => {
    const facts: ActivityFacts = { gppSids: signals.gppSids, country: signals.country, region: signals.region, gpc: signals.gpc };
    const gdprApplies = eff.gdprEnabled && (signals.gdpr ?? eff.gdprDefault) === 1;
    const usOptOut = eff.ccpaEnforced && (signals.usOptOut || signals.gppUsOptOut || signals.gpc);
    const lmtOrCoppa = signals.coppa || (eff.lmtEnforced && signals.lmt);
    const latest = opts.vendorLists.latest();
    const aliasGvlIds = request.ext?.prebid?.aliasgvlids;
    const ip = { ipv4KeepBits: eff.ipv4KeepBits, ipv6KeepBits: eff.ipv6KeepBits };
    const nothingToDo = !gdprApplies && !usOptOut && !lmtOrCoppa && control.unrestricted;

    const permissionsOf = (b: PrivacyBidder): GdprPermissions => {
      if (!gdprApplies) return ALLOW_ALL;
      const tcf = signals.tcf;
      if (tcf === undefined) return DEFAULT_PERMISSIONS;
      if (eff.enforceAlgo === 'full' && list === undefined) return DEFAULT_PERMISSIONS;
      // Own keys only: an alias may be named `constructor` or `__proto__`.
      const aliasGvlId: unknown = ownValue(aliasGvlIds, b.code);
      let vendorId = typeof aliasGvlId === 'number' ? aliasGvlId : (b.gvlVendorId ?? 0);
      // An id the newest list does not have is no vendor at all (as Prebid Server checks).
      if (latest !== undefined && latest.vendor(vendorId) === undefined) vendorId = 0;
      return gdprPermissions(eff.enforceAlgo, { name: b.code, vendorId, vendor: list?.vendor(vendorId), exception: eff.vendorExceptions.has(b.code) }, tcf);
    };

    return {
      signals,
      warnings,
      bidder(b) {
        if (nothingToDo) return keepAll;
        const component: Component = { type: 'bidder', name: b.code };
        if (!isAllowed(control, 'fetchBids', component, facts)) return { allowed: false, reason: `bidder "${b.code}" blocked by privacy settings (activity fetchBids)` };
        const perms = permissionsOf(b);
        if (!perms.allowBidRequest) return { allowed: false, reason: `bidder "${b.code}" blocked by privacy settings (GDPR: no legal basis for purpose 2)` };

        const plan: ScrubPlan = {};
        const optedOut = usOptOut && !(signals.noSale === '*' || signals.noSale.has(b.code));
        const fullUsScrub = (): void => {
          plan.deviceIds = plan.ip = plan.userDemographics = plan.eids = plan.geoRounded = true;
        };
        if (!isAllowed(control, 'transmitUfpd', component, facts)) {
          plan.deviceIds = plan.userFpd = plan.eids = true;
        } else {
          if (!perms.passId) plan.deviceIds = plan.userDemographics = plan.eids = true;
          if (optedOut) fullUsScrub();
        }
        if (!isAllowed(control, 'transmitPreciseGeo', component, facts) || !perms.passGeo || optedOut) plan.ip = plan.geoRounded = true;
        if (lmtOrCoppa) fullUsScrub();
        // COPPA goes further than Prebid Server: no user first-party data and no geo at all for a child.
        if (signals.coppa) plan.userFpd = plan.geoRemoved = true;
        if (!isAllowed(control, 'transmitEids', component, facts)) plan.eids = true;
        if (!isAllowed(control, 'transmitTid', component, facts)) plan.tid = true;
        if (isEmptyPlan(plan)) return keepAll;
        return { allowed: true, plan, scrub: (r) => scrubRequest(r, plan, ip) };
      },
      reportAnalytics: (module) => control.unrestricted || control.allow('reportAnalytics', { type: 'analytics', name: module }, facts),
    };
  };

  return {
    begin(request, input) {
      const signals = readPrivacySignals(request, input.gpc, decoders);
      const eff = effectivePrivacy(opts.host, input.account, input.channel);
      const control = controlFor(input.account);
      const warnings = [...signals.warnings];
      const gdprApplies = eff.gdprEnabled && (signals.gdpr ?? eff.gdprDefault) === 1;
      const version = signals.tcf?.vendorListVersion ?? 0;
      if (!gdprApplies || signals.tcf === undefined || eff.enforceAlgo !== 'full') return decide(request, signals, eff, control, undefined, warnings);
      const held = opts.vendorLists.get(version);
      if (held !== undefined) return decide(request, signals, eff, control, held, warnings);
      return opts.vendorLists.load(version, AbortSignal.timeout(Math.max(1, input.maxWaitMs))).then((loaded) => {
        // A version not to be had: the newest list held stands in (vendors' declarations change slowly).
        const list = loaded ?? opts.vendorLists.latest();
        if (loaded === undefined) warnings.push(list === undefined ? `no GDPR vendor list is available (the consent names version ${version}): bidders get Prebid Server's default permissions` : `GDPR vendor list version ${version} is not available; version ${list.version} is used`);
        return decide(request, signals, eff, control, list, warnings);
      });
    },
  };
};
