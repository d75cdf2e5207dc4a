/**
 * Activity controls as Prebid Server names them (`privacy.allowactivities`): for each activity a
 * default and rules; the first rule whose condition matches decides, else the default (allowed
 * when unset). A condition's clauses must all match; a clause left out matches anything; within a
 * clause, any listed value matches.
 */

export const ACTIVITY_NAMES = ['syncUser', 'fetchBids', 'enrichUfpd', 'reportAnalytics', 'transmitUfpd', 'transmitPreciseGeo', 'transmitEids', 'transmitTid', 'transmitUniqueRequestIds'] as const;
export type ActivityName = (typeof ACTIVITY_NAMES)[number];

/** One rule as configured (Prebid Server's spelling). */
export interface ActivityRuleSetting {
  readonly condition?: {
    /** `bidder`, `analytics`, `rtd`, `general`. */
    readonly componentType?: readonly string[];
    /** Bidder codes (an alias by its own code) or analytics module names. */
    readonly componentName?: readonly string[];
    /** GPP section ids of `regs.gpp_sid`: matches when the request names any of them. */
    readonly gppSid?: readonly number[];
    /** `COUNTRY` or `COUNTRY.REGION` of `device.geo` (ISO-3166-1 alpha-3, as OpenRTB has it). */
    readonly geo?: readonly string[];
    /** `"1"`: matches a request with Global Privacy Control on; `"0"`: off. */
    readonly gpc?: string;
  };
  readonly allow: boolean;
}

export interface ActivitySetting {
  readonly default?: boolean;
  readonly rules?: readonly ActivityRuleSetting[];
}

export type AllowActivitiesSetting = Readonly<Partial<Record<ActivityName, ActivitySetting>>>;

/** Who would do the activity. */
export interface Component {
  readonly type: 'bidder' | 'analytics' | 'rtd' | 'general';
  readonly name: string;
}

/** What the conditions read of the request. */
export interface ActivityFacts {
  readonly gppSids: readonly number[];
  /** `device.geo.country`, upper case; empty when unknown. */
  readonly country: string;
  readonly region: string;
  readonly gpc: boolean;
}

type Matcher = (c: Component, f: ActivityFacts) => boolean;
interface Plan {
  readonly rules: readonly { readonly matches: Matcher; readonly allow: boolean }[];
  readonly allowByDefault: boolean;
}

/** Answers whether a component may do an activity in a request. Pure; compiled once per settings. */
export interface ActivityControl {
  allow(activity: ActivityName, component: Component, facts: ActivityFacts): boolean;
  /** No activity is configured: every answer is "allowed". */
  readonly unrestricted: boolean;
}

const lower = (xs: readonly string[] | undefined): Set<string> | undefined => (xs === undefined || xs.length === 0 ? undefined : new Set(xs.map((x) => x.toLowerCase())));

const compileRule = (rule: ActivityRuleSetting): Matcher => {
  const c = rule.condition ?? {};
  const types = lower(c.componentType);
  const names = lower(c.componentName);
  const sids = c.gppSid === undefined || c.gppSid.length === 0 ? undefined : new Set(c.gppSid);
  const geos = c.geo === undefined || c.geo.length === 0 ? undefined : c.geo.map((g) => g.toUpperCase().split('.'));
  const gpc = c.gpc === undefined ? undefined : c.gpc === '1';
  return (component, facts) => {
    if (types !== undefined && !types.has(component.type)) return false;
    if (names !== undefined && !names.has(component.name.toLowerCase())) return false;
    if (sids !== undefined && !facts.gppSids.some((s) => sids.has(s))) return false;
    if (geos !== undefined && !geos.some(([country, region]) => country === facts.country && (region === undefined || region === facts.region))) return false;
    if (gpc !== undefined && gpc !== facts.gpc) return false;
    return true;
  };
};

const compilePlan = (setting: ActivitySetting): Plan => ({
  rules: (setting.rules ?? []).map((r) => ({ matches: compileRule(r), allow: r.allow })),
  allowByDefault: setting.default ?? true,
});

/**
 * Compiles the host's settings with an account's over them: an activity the account configures
 * replaces the host's plan for it whole (rules and default), as an account's settings replace
 * the host's in Prebid Server.
 */
export const compileActivityControl = (host: AllowActivitiesSetting, account: AllowActivitiesSetting | undefined): ActivityControl => {
  const plans = new Map<ActivityName, Plan>();
  for (const name of ACTIVITY_NAMES) {
    const setting = account?.[name] ?? host[name];
    if (setting !== undefined) plans.set(name, compilePlan(setting));
  }
  return {
    unrestricted: plans.size === 0,
    allow(activity, component, facts) {
      const plan = plans.get(activity);
      if (plan === undefined) return true;
      for (const r of plan.rules) if (r.matches(component, facts)) return r.allow;
      return plan.allowByDefault;
    },
  };
};

/**
 * The activity control of each account, compiled once per account settings object (the account
 * resolver hands out the same object while the settings are unchanged, and a WeakMap lets a
 * replaced one go); the host's own when the account sets no `allowactivities`.
 */
export const createActivityControls = (host: AllowActivitiesSetting): ((account: { readonly allowactivities?: AllowActivitiesSetting } | undefined) => ActivityControl) => {
  const hostControl = compileActivityControl(host, undefined);
  const controls = new WeakMap<object, ActivityControl>();
  return (account) => {
    if (account?.allowactivities === undefined) return hostControl;
    let c = controls.get(account);
    if (c === undefined) controls.set(account, (c = compileActivityControl(host, account.allowactivities)));
    return c;
  };
};
