import type { AdapterModule } from './adapter.js';
import { appnexusAdapter } from './appnexus/index.js';
import { genericAdapter } from './generic/index.js';
import { openxAdapter } from './openx/index.js';
import { pubmaticAdapter } from './pubmatic/index.js';

/**
 * The adapters this build ships, by the name `adapters.<code>.adapter` uses (Prebid Server's
 * bidder names). Adding a bidder is its folder under `src/bidders/` and one line here; a built-in
 * alias is a line naming the alias with its target's adapter and `info.aliasOf` set.
 * A null-prototype record, so `constructor` or `__proto__` is never an adapter.
 */
export const BUILTIN_ADAPTERS: Readonly<Record<string, AdapterModule>> = Object.assign(Object.create(null) as Record<string, AdapterModule>, {
  appnexus: appnexusAdapter,
  generic: genericAdapter,
  openx: openxAdapter,
  pubmatic: pubmaticAdapter,
});
