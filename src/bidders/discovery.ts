import { capabilitiesOf } from './adapter.js';
import type { AdapterModule, ChannelCapabilities } from './adapter.js';

/** What `createBidderDiscovery` needs of `adapters.<code>` (the registry's `BidderSetting`). */
export interface DiscoverySetting {
  readonly adapter?: string;
  readonly endpoint: string;
  readonly enabled: boolean;
}

/** `/info/bidders` filters, as Prebid Server's `enabledonly` and `baseadaptersonly`. */
export interface BidderListFilter {
  readonly enabledOnly: boolean;
  readonly baseAdaptersOnly: boolean;
}

/**
 * The answers of the discovery endpoints, as JSON text built once at start from the built-in
 * adapters and the configuration (so they hold only configured data, and are as large as it).
 */
export interface BidderDiscovery {
  /** `/info/bidders`: the bidder codes passing the filter, sorted, as a JSON array. */
  listJson(filter: BidderListFilter): string;
  /**
   * `/info/bidders/<name>`: the bidder's details (`status`, `usesHttps`, `maintainer`,
   * `capabilities`, `aliasOf`), found whatever the case of `name`; `all` (any case) gives every
   * bidder's by code. `undefined` for an unknown bidder.
   */
  detailJson(name: string): string | undefined;
  /** `/bidders/params`: every bidder's params JSON Schema, by code, as one JSON object. */
  paramsJson(): string;
}

/** One bidder as Prebid Server's bidder infos count it: a base adapter or an alias, on or off. */
interface Entry {
  readonly code: string;
  readonly module: AdapterModule;
  readonly endpoint: string;
  readonly enabled: boolean;
  readonly aliasOf?: string;
}

/**
 * The bidders of this server as Prebid Server lists its bidder infos: every built-in adapter but
 * `generic` (a kind of bidder with no endpoint), and every `adapters.<code>`. A configured code
 * running another code's adapter (`adapter: generic`, or naming a built-in) is an alias of it, as
 * Prebid Server's aliases are; `enabled: false`, or a built-in shipped disabled and not
 * configured, is a disabled bidder. Codes naming no known adapter are left out (the registry
 * refuses them at start).
 */
const entriesOf = (builtins: Readonly<Record<string, AdapterModule>>, settings: Readonly<Record<string, DiscoverySetting>>): Entry[] => {
  const entries: Entry[] = [];
  for (const [code, module] of Object.entries(builtins)) {
    if (code === 'generic' || Object.hasOwn(settings, code)) continue;
    entries.push({ code, module, endpoint: module.info.endpoint, enabled: module.info.disabled !== true, ...aliasOf(module.info.aliasOf) });
  }
  for (const [code, setting] of Object.entries(settings)) {
    const adapterName = setting.adapter ?? code;
    const module = Object.hasOwn(builtins, adapterName) ? builtins[adapterName] : undefined;
    if (module === undefined) continue;
    // An alias of a built-in alias is an alias of its target: Prebid Server has no alias chains.
    const target = adapterName === code ? module.info.aliasOf : (module.info.aliasOf ?? adapterName);
    entries.push({ code, module, endpoint: setting.endpoint || module.info.endpoint, enabled: setting.enabled, ...aliasOf(target) });
  }
  return entries.sort((a, b) => (a.code < b.code ? -1 : a.code > b.code ? 1 : 0));
};

const aliasOf = (target: string | undefined): { aliasOf?: string } => (target === undefined || target === '' ? {} : { aliasOf: target });

/** A bidder's details with Prebid Server's keys in its order; a disabled one shows no endpoint facts. */
const detailOf = (entry: Entry): Record<string, unknown> => {
  const { maintainer } = entry.module.info;
  const caps = capabilitiesOf(entry.module.info);
  return {
    status: entry.enabled ? 'ACTIVE' : 'DISABLED',
    ...(entry.enabled ? { usesHttps: entry.endpoint.toLowerCase().startsWith('https://') } : {}),
    ...(maintainer !== undefined ? { maintainer: { email: maintainer.email } } : {}),
    ...(entry.enabled ? { capabilities: channelsOf(caps) } : {}),
    ...(entry.aliasOf !== undefined ? { aliasOf: entry.aliasOf } : {}),
  };
};

const channelsOf = (caps: ChannelCapabilities): Record<string, unknown> => {
  const out: Record<string, unknown> = {};
  for (const channel of ['app', 'site', 'dooh'] as const) {
    const mediaTypes = caps[channel];
    if (mediaTypes !== undefined) out[channel] = { mediaTypes };
  }
  return out;
};

/**
 * Builds the discovery answers once. The name looked up is request data: it only reads a `Map`
 * (so `__proto__` or `constructor` is an unknown bidder unless configured), and nothing is kept.
 */
export const createBidderDiscovery = (builtins: Readonly<Record<string, AdapterModule>>, settings: Readonly<Record<string, DiscoverySetting>>): BidderDiscovery => {
  const entries = entriesOf(builtins, settings);
  const list = (keep: (e: Entry) => boolean): string => JSON.stringify(entries.filter(keep).map((e) => e.code));
  const lists = {
    all: list(() => true),
    base: list((e) => e.aliasOf === undefined),
    enabled: list((e) => e.enabled),
    enabledBase: list((e) => e.enabled && e.aliasOf === undefined),
  };
  const details = new Map<string, string>();
  const all: Record<string, unknown> = Object.create(null) as Record<string, unknown>;
  for (const entry of entries) {
    const detail = detailOf(entry);
    all[entry.code] = detail;
    // Case-insensitive as Prebid Server's bidder names; of codes differing only in case, the first in order answers.
    const key = entry.code.toLowerCase();
    if (!details.has(key)) details.set(key, JSON.stringify(detail));
  }
  const allJson = JSON.stringify(all);
  const params: Record<string, unknown> = Object.create(null) as Record<string, unknown>;
  for (const entry of entries) params[entry.code] = entry.module.info.paramsSchema;
  const paramsJson = JSON.stringify(params);

  return {
    listJson: ({ enabledOnly, baseAdaptersOnly }) => (enabledOnly ? (baseAdaptersOnly ? lists.enabledBase : lists.enabled) : baseAdaptersOnly ? lists.base : lists.all),
    detailJson: (name) => {
      const key = name.toLowerCase();
      return key === 'all' ? allJson : details.get(key);
    },
    paramsJson: () => paramsJson,
  };
};
