import type { AdapterBids } from './go-bid-response.js';
import type { FledgeAuctionConfig } from './adapter.js';
import { isObject } from './json-guards.js';

/**
 * The Protected Audience configs a bidder answers in `ext.fledge_auction_configs`, an object of
 * configs by imp id (OpenX's and PubMatic's answers), as Prebid Server's adapters read it: absent,
 * or an `ext` or member that is not an object, gives none; each config is passed on as it came.
 * The exchange names the bidder of each (OpenX's Go adapter names itself; openbid's exchange does it for every bidder).
 */
export const fledgeConfigsInExt = (ext: unknown): FledgeAuctionConfig[] | undefined => {
  if (!isObject(ext)) return undefined;
  const byImp = ext.fledge_auction_configs;
  if (!isObject(byImp)) return undefined;
  // Object.entries walks own keys only, `__proto__` included when the JSON has it.
  return Object.entries(byImp).map(([impId, config]) => ({ impId, config }));
};

/** `read` with `configs` added to its answer (an answer with no bids is made for them). */
export const withFledgeConfigs = (read: AdapterBids, configs: FledgeAuctionConfig[] | undefined, currency: string): AdapterBids => {
  if (configs === undefined) return read;
  const response = read.response ?? { currency, bids: [] };
  return { ...read, response: { ...response, fledgeAuctionConfigs: configs } };
};
