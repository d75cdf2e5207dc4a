import type { AdapterModule } from './adapter.js';
import { thirtyThreeAcrossAdapter } from './33across/index.js';
import { adfAdapter } from './adf/index.js';
import { appnexusAdapter } from './appnexus/index.js';
import { criteoAdapter } from './criteo/index.js';
import { genericAdapter } from './generic/index.js';
import { ixAdapter } from './ix/index.js';
import { kargoAdapter } from './kargo/index.js';
import { medianetAdapter } from './medianet/index.js';
import { openxAdapter } from './openx/index.js';
import { pubmaticAdapter } from './pubmatic/index.js';
import { rubiconAdapter } from './rubicon/index.js';
import { sharethroughAdapter } from './sharethrough/index.js';
import { smartadserverAdapter } from './smartadserver/index.js';
import { sovrnAdapter } from './sovrn/index.js';
import { tripleliftAdapter } from './triplelift/index.js';

/**
 * The adapters this build ships, by the name `adapters.<code>.adapter` uses (Prebid Server's
 * bidder names). Adding a bidder is its folder under `src/bidders/` and one line here; a built-in
 * alias is a line naming the alias with its target's adapter and `info.aliasOf` set.
 * A null-prototype record, so `constructor` or `__proto__` is never an adapter.
 */
export const BUILTIN_ADAPTERS: Readonly<Record<string, AdapterModule>> = Object.assign(Object.create(null) as Record<string, AdapterModule>, {
  '33across': thirtyThreeAcrossAdapter,
  adf: adfAdapter,
  adform: { ...adfAdapter, info: { ...adfAdapter.info, aliasOf: 'adf' } },
  appnexus: appnexusAdapter,
  criteo: criteoAdapter,
  generic: genericAdapter,
  ix: ixAdapter,
  kargo: kargoAdapter,
  medianet: medianetAdapter,
  openx: openxAdapter,
  pubmatic: pubmaticAdapter,
  rubicon: rubiconAdapter,
  sharethrough: sharethroughAdapter,
  smartadserver: smartadserverAdapter,
  sovrn: sovrnAdapter,
  triplelift: tripleliftAdapter,
});
