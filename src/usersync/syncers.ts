import type { AdapterModule, SyncEndpointInfo, UserSyncInfo } from '../bidders/adapter.js';
import { buildSyncTemplate, DEFAULT_REDIRECT_TEMPLATE, fillSyncUrl, unknownMacros } from './sync-url.js';
import type { SyncMacroValues } from './sync-url.js';

/** How a sync is done in the page: an iframe, or an image that follows redirects. */
export type SyncType = 'iframe' | 'redirect';

/** One sync for the page to run. */
export interface Sync {
  readonly url: string;
  readonly type: SyncType;
  readonly supportCors: boolean;
}

/** The user sync of one cookie family (Prebid Server's `Syncer`). Immutable, built at start. */
export interface Syncer {
  /** The `uids` cookie family. */
  readonly family: string;
  /** iframe when it has an iframe endpoint, else redirect (Prebid Server's default). */
  readonly defaultType: SyncType;
  readonly supportCors: boolean;
  /** Whether it has an endpoint of any of `types`. */
  supports(types: readonly SyncType[]): boolean;
  /**
   * The sync of one of `types` (the default type when allowed, else the first allowed it has),
   * its URL filled with the request's privacy values; `undefined` when it has none of them.
   */
  sync(types: readonly SyncType[], values: SyncMacroValues): Sync | undefined;
}

/** The host's side of every sync URL. */
export interface SyncHostSettings {
  /** `server.external_url`: where `/setuid` is reached. */
  readonly externalUrl: string;
  /** `user_sync.redirect_url`; empty: Prebid Server's default (`{{.ExternalURL}}/setuid?bidder=…`). */
  readonly redirectUrl: string;
}

/** What `adapters.<code>.usersync` says (the config's spelling). */
export interface UserSyncSetting {
  readonly cookie_family?: string;
  readonly redirect?: { readonly url: string; readonly user_macro: string; readonly redirect_url?: string };
  readonly iframe?: { readonly url: string; readonly user_macro: string; readonly redirect_url?: string };
  readonly support_cors?: boolean;
}

/** What a URL must look like once its macros are filled (Prebid Server checks the same at start). */
const TEST_VALUES: SyncMacroValues = { gdpr: 'anyGDPR', gdprConsent: 'anyGDPRConsent', usPrivacy: 'anyCCPAConsent', gpp: '', gppSid: '' };

const compileEndpoint = (family: string, kind: SyncType, e: SyncEndpointInfo, host: SyncHostSettings, problems: string[], where: string): string | undefined => {
  const template = buildSyncTemplate(e.url, e.redirectUrl || host.redirectUrl || DEFAULT_REDIRECT_TEMPLATE, {
    externalUrl: host.externalUrl.replace(/\/+$/, ''),
    family,
    syncType: kind === 'iframe' ? 'b' : 'i',
    userMacro: e.userMacro,
  });
  const unknown = unknownMacros(template);
  if (unknown.length > 0) {
    problems.push(`${where}.${kind}.url: unknown macro ${unknown.join(', ')}`);
    return undefined;
  }
  let url: URL | undefined;
  try {
    url = new URL(fillSyncUrl(template, TEST_VALUES));
  } catch {
    url = undefined;
  }
  if (url === undefined || (url.protocol !== 'http:' && url.protocol !== 'https:')) {
    problems.push(`${where}.${kind}.url: "${e.url}" is not an http(s) URL once its macros are filled`);
    return undefined;
  }
  return template;
};

/** Builds one syncer; problems (a bad URL, an unknown macro, no endpoint) are pushed to `problems`. */
export const createSyncer = (family: string, info: UserSyncInfo, host: SyncHostSettings, problems: string[], where = `usersync of ${family}`): Syncer | undefined => {
  if (info.iframe === undefined && info.redirect === undefined) {
    problems.push(`${where}: at least one endpoint (iframe and/or redirect) is required`);
    return undefined;
  }
  const before = problems.length;
  const iframe = info.iframe === undefined ? undefined : compileEndpoint(family, 'iframe', info.iframe, host, problems, where);
  const redirect = info.redirect === undefined ? undefined : compileEndpoint(family, 'redirect', info.redirect, host, problems, where);
  if (problems.length > before) return undefined;
  const templateOf = (t: SyncType): string | undefined => (t === 'iframe' ? iframe : redirect);
  const defaultType: SyncType = iframe !== undefined ? 'iframe' : 'redirect';
  const supportCors = info.supportCors === true;
  return {
    family,
    defaultType,
    supportCors,
    supports: (types) => types.some((t) => templateOf(t) !== undefined),
    sync(types, values) {
      const supported = types.filter((t) => templateOf(t) !== undefined);
      if (supported.length === 0) return undefined;
      const type = supported.includes(defaultType) ? defaultType : supported[0]!;
      return { url: fillSyncUrl(templateOf(type)!, values), type, supportCors };
    },
  };
};

/** The configured `usersync` over a built-in's: each field set replaces the built-in's. */
export const mergeUserSync = (builtin: UserSyncInfo | undefined, setting: UserSyncSetting | undefined): UserSyncInfo | undefined => {
  if (setting === undefined) return builtin;
  const endpoint = (e: UserSyncSetting['iframe']): SyncEndpointInfo | undefined =>
    e === undefined ? undefined : { url: e.url, userMacro: e.user_macro, ...(e.redirect_url !== undefined ? { redirectUrl: e.redirect_url } : {}) };
  const iframe = endpoint(setting.iframe) ?? builtin?.iframe;
  const redirect = endpoint(setting.redirect) ?? builtin?.redirect;
  const key = setting.cookie_family ?? builtin?.key;
  const supportCors = setting.support_cors ?? builtin?.supportCors;
  return { ...(key !== undefined ? { key } : {}), ...(iframe ? { iframe } : {}), ...(redirect ? { redirect } : {}), ...(supportCors !== undefined ? { supportCors } : {}) };
};

/** The syncers of this server, by bidder code and by cookie family. */
export interface SyncerRegistry {
  /** The syncer of a bidder code (exact, else ignoring case as Prebid Server does). */
  forBidder(code: string): Syncer | undefined;
  byFamily(family: string): Syncer | undefined;
  /** Every cookie family, sorted. */
  families(): readonly string[];
  /** Whether `family` is a cookie family of a configured bidder (what `/setuid?bidder=` takes). */
  isKnownFamily(family: string): boolean;
  /** Bidder codes with a syncer, sorted: the bidders cooperative sync may offer. */
  biddersWithSyncers(): readonly string[];
}

/** One enabled bidder and its sync info, as the registry is built from. */
export interface SyncingBidder {
  readonly code: string;
  readonly userSync: UserSyncInfo | undefined;
}

/**
 * Builds the registry. Bidders sharing a family share one syncer, which all of them must define
 * alike (Prebid Server allows a shared key only with identical endpoints). Throws an `Error` listing
 * every problem, so a bad config stops the start.
 */
export const createSyncerRegistry = (bidders: readonly SyncingBidder[], host: SyncHostSettings): SyncerRegistry => {
  const problems: string[] = [];
  const byFamily = new Map<string, { syncer: Syncer; info: UserSyncInfo; code: string }>();
  const byBidder = new Map<string, Syncer>();
  const byLowerBidder = new Map<string, Syncer>();
  for (const { code, userSync } of bidders) {
    if (userSync === undefined) continue;
    const family = userSync.key ?? code;
    const held = byFamily.get(family);
    if (held !== undefined) {
      if (JSON.stringify(held.info) !== JSON.stringify(userSync)) problems.push(`adapters.${code}.usersync: cookie family "${family}" is already used by ${held.code} with other endpoints`);
      else byBidder.set(code, held.syncer);
      continue;
    }
    const syncer = createSyncer(family, userSync, host, problems, `adapters.${code}.usersync`);
    if (syncer === undefined) continue;
    byFamily.set(family, { syncer, info: userSync, code });
    byBidder.set(code, syncer);
  }
  if (problems.length > 0) throw new Error(`invalid user sync configuration:\n  ${problems.join('\n  ')}`);
  for (const [code, s] of byBidder) if (!byLowerBidder.has(code.toLowerCase())) byLowerBidder.set(code.toLowerCase(), s);
  const families = [...byFamily.keys()].sort();
  const codes = [...byBidder.keys()].sort();
  return {
    forBidder: (code) => byBidder.get(code) ?? byLowerBidder.get(code.toLowerCase()),
    byFamily: (family) => byFamily.get(family)?.syncer,
    families: () => families,
    isKnownFamily: (family) => byFamily.has(family),
    biddersWithSyncers: () => codes,
  };
};

/** What the configuration says of one bidder code, as far as syncing goes. */
export interface SyncBidderSetting {
  readonly adapter?: string;
  readonly enabled: boolean;
  readonly usersync?: UserSyncSetting;
}

/**
 * The enabled bidders (built-ins not configured, and every enabled `adapters.<code>`, which runs
 * a built-in adapter and takes its sync info unless its own `usersync` replaces it), as the
 * bidder registry resolves them. `generic` is a kind of bidder, not a bidder.
 */
export const syncingBidders = (builtins: Readonly<Record<string, AdapterModule>>, settings: Readonly<Record<string, SyncBidderSetting>>): SyncingBidder[] => {
  const out: SyncingBidder[] = [];
  for (const [code, module] of Object.entries(builtins)) {
    if (code === 'generic' || Object.hasOwn(settings, code)) continue;
    out.push({ code, userSync: module.info.userSync });
  }
  for (const [code, setting] of Object.entries(settings)) {
    if (!setting.enabled) continue;
    const name = setting.adapter ?? code;
    const module = Object.hasOwn(builtins, name) ? builtins[name] : undefined;
    if (module === undefined) continue;
    out.push({ code, userSync: mergeUserSync(module.info.userSync, setting.usersync) });
  }
  return out;
};
