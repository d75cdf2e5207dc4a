import { capabilitiesOf } from './adapter.js';
import type { AdapterHostConfig, AdapterModule, ChannelCapabilities } from './adapter.js';
import { compileParamsCheck } from './params.js';
import type { ParamsCheck } from './params.js';

/** A bidder this server can call: its adapter, endpoint and params check, resolved once at start. */
export interface Bidder {
  /** The code the request and the response use. */
  readonly code: string;
  /** The configured code this bidder runs as: itself, or an alias's target (a bounded metrics label). */
  readonly baseCode: string;
  readonly module: AdapterModule;
  readonly endpoint: string;
  readonly checkParams: ParamsCheck;
  readonly gvlVendorId?: number;
  /** What the host configured for it beyond the endpoint, with this server's facts. */
  readonly host: AdapterHostConfig;
  /** The media types it bids on per channel (site, app, dooh); an absent channel is not supported. */
  readonly capabilities: ChannelCapabilities;
}

/** This server's facts some adapters send (`server.external_url`, openbid's version). */
export interface ServerFacts {
  readonly externalUrl: string;
  readonly version: string;
}

/** What the configuration says of one bidder code (`adapters.<code>`). */
export interface BidderSetting {
  readonly adapter?: string;
  readonly endpoint: string;
  readonly enabled: boolean;
  readonly gvl_vendor_id?: number;
  readonly extra_info?: string;
  readonly xapi?: { readonly username: string; readonly password: string; readonly tracker: string };
}

/**
 * The bidders of this server. `get` answers `undefined` for a code that is unknown or disabled:
 * the exchange reports that as a warning and goes on with the other bidders.
 */
export interface BidderRegistry {
  get(code: string): Bidder | undefined;
  /** Why `get` answers nothing for this code: it is disabled, or unknown. */
  isDisabled(code: string): boolean;
  /** The bidder `alias` resolves to under a request's `ext.prebid.aliases`, named as the alias. */
  alias(alias: string, target: string): Bidder | undefined;
}

/**
 * Builds the registry from the built-in adapters and the configuration. Throws an `Error` listing
 * every problem (an unknown adapter, a generic bidder without an endpoint), so a bad config stops
 * the start rather than failing auctions later.
 */
export const createBidderRegistry = (
  builtins: Readonly<Record<string, AdapterModule>>,
  settings: Readonly<Record<string, BidderSetting>>,
  server: ServerFacts = { externalUrl: '', version: '' },
): BidderRegistry => {
  const problems: string[] = [];
  const bidders = new Map<string, Bidder>();
  const disabled = new Set<string>();
  const checks = new Map<AdapterModule, ParamsCheck>();
  const checkFor = (module: AdapterModule): ParamsCheck => {
    let check = checks.get(module);
    if (check === undefined) checks.set(module, (check = compileParamsCheck(module.info.paramsSchema)));
    return check;
  };
  const make = (code: string, module: AdapterModule, setting: BidderSetting | undefined): Bidder => {
    const endpoint = setting?.endpoint || module.info.endpoint;
    const gvlVendorId = setting?.gvl_vendor_id ?? module.info.gvlVendorId;
    const host: AdapterHostConfig = {
      externalUrl: server.externalUrl,
      serverVersion: server.version,
      extraInfo: setting?.extra_info ?? module.info.extraInfo ?? '',
      ...(setting?.xapi !== undefined ? { xapi: setting.xapi } : {}),
    };
    const capabilities = capabilitiesOf(module.info);
    return { code, baseCode: code, module, endpoint, checkParams: checkFor(module), host, capabilities, ...(gvlVendorId !== undefined ? { gvlVendorId } : {}) };
  };

  for (const [code, module] of Object.entries(builtins)) {
    // `generic` is a kind of bidder, not a bidder: it has no endpoint of its own.
    if (code === 'generic' || Object.hasOwn(settings, code)) continue;
    // Shipped off (Prebid Server's `disabled: true`): named in a request, it is a disabled bidder.
    if (module.info.disabled === true) {
      disabled.add(code);
      continue;
    }
    bidders.set(code, make(code, module, undefined));
  }
  for (const [code, setting] of Object.entries(settings)) {
    const adapterName = setting.adapter ?? code;
    // Own keys only: an adapter named `constructor` is unknown, not Object's constructor.
    const module = Object.hasOwn(builtins, adapterName) ? builtins[adapterName] : undefined;
    if (module === undefined) {
      problems.push(`adapters.${code}.adapter: no built-in adapter named "${adapterName}" (known: ${Object.keys(builtins).sort().join(', ')})`);
      continue;
    }
    if ((setting.endpoint || module.info.endpoint) === '') problems.push(`adapters.${code}.endpoint: required for a ${adapterName} bidder`);
    if (!setting.enabled) {
      disabled.add(code);
      continue;
    }
    bidders.set(code, make(code, module, setting));
  }
  if (problems.length > 0) throw new Error(`invalid bidder configuration:\n  ${problems.join('\n  ')}`);

  return {
    get: (code) => bidders.get(code),
    isDisabled: (code) => disabled.has(code),
    alias: (alias, target) => {
      const core = bidders.get(target);
      return core === undefined ? undefined : { ...core, code: alias };
    },
  };
};
