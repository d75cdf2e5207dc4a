/**
 * OpenRTB 2.6 bid request and response objects with Prebid Server's extensions, in their wire
 * spelling. Only the fields openbid reads or writes are named; every object keeps the others it
 * was sent (`[key: string]: unknown`), because a bidder must receive what the publisher sent even
 * where openbid has no use for it.
 */

/** Fields openbid does not name pass through untouched. */
export interface Open {
  [key: string]: unknown;
}

export interface Format extends Open {
  w?: number;
  h?: number;
}

export interface Banner extends Open {
  format?: Format[];
  w?: number;
  h?: number;
  pos?: number;
}

export interface Video extends Open {
  mimes?: string[];
  w?: number;
  h?: number;
  minduration?: number;
  maxduration?: number;
  protocols?: number[];
  placement?: number;
  plcmt?: number;
  startdelay?: number;
  skip?: number;
}

export interface Audio extends Open {
  mimes?: string[];
}

export interface Native extends Open {
  /** The native markup request, itself JSON text. */
  request?: string;
  ver?: string;
}

export interface Deal extends Open {
  id: string;
  bidfloor?: number;
  bidfloorcur?: string;
}

export interface Pmp extends Open {
  private_auction?: number;
  deals?: Deal[];
}

export interface ImpExtPrebid extends Open {
  /** Bidder code → that bidder's params. */
  bidder?: Record<string, unknown>;
  storedrequest?: { id?: string };
  adunitcode?: string;
  is_rewarded_inventory?: number;
  options?: Open;
}

export interface ImpExt extends Open {
  prebid?: ImpExtPrebid;
  /** What a bidder adapter sees: its own params, moved here from `ext.prebid.bidder.<code>`. */
  bidder?: unknown;
  data?: Open;
  gpid?: string;
  tid?: string;
}

export interface Imp extends Open {
  id: string;
  banner?: Banner;
  video?: Video;
  audio?: Audio;
  native?: Native;
  pmp?: Pmp;
  tagid?: string;
  bidfloor?: number;
  bidfloorcur?: string;
  secure?: number;
  instl?: number;
  exp?: number;
  ext?: ImpExt;
}

export interface Publisher extends Open {
  id?: string;
  domain?: string;
  ext?: Open;
}

export interface Site extends Open {
  id?: string;
  page?: string;
  domain?: string;
  ref?: string;
  publisher?: Publisher;
  ext?: Open;
}

export interface App extends Open {
  id?: string;
  bundle?: string;
  publisher?: Publisher;
  ext?: Open;
}

export interface Geo extends Open {
  lat?: number;
  lon?: number;
  country?: string;
  region?: string;
}

export interface Device extends Open {
  ua?: string;
  ip?: string;
  ipv6?: string;
  geo?: Geo;
  lmt?: number;
  ifa?: string;
  dnt?: number;
  ext?: Open;
}

export interface Eid extends Open {
  source?: string;
  uids?: Open[];
}

export interface User extends Open {
  id?: string;
  buyeruid?: string;
  consent?: string;
  eids?: Eid[];
  ext?: Open;
}

export interface Regs extends Open {
  coppa?: number;
  gdpr?: number;
  us_privacy?: string;
  gpp?: string;
  gpp_sid?: number[];
  ext?: Open;
}

export interface Source extends Open {
  tid?: string;
  schain?: Open;
  ext?: Open;
}

/** Price granularity as Prebid defines a custom one: each range up to `max` in steps of `increment`. */
export interface PriceGranularityRange {
  /** Read but not used: a range starts at the previous one's `max` (the first at 0), as in Prebid Server. */
  min?: number;
  max: number;
  increment: number;
}
export interface CustomPriceGranularity {
  precision?: number;
  /** Absent or empty: `medium`, as in Prebid Server. */
  ranges?: PriceGranularityRange[];
}
export type PriceGranularitySetting = 'low' | 'medium' | 'med' | 'high' | 'auto' | 'dense' | CustomPriceGranularity;

export interface ExtRequestTargeting extends Open {
  pricegranularity?: PriceGranularitySetting;
  mediatypepricegranularity?: { banner?: PriceGranularitySetting; video?: PriceGranularitySetting; native?: PriceGranularitySetting };
  includewinners?: boolean;
  includebidderkeys?: boolean;
  includeformat?: boolean;
  preferdeals?: boolean;
  alwaysincludedeals?: boolean;
  prefix?: string;
}

export interface ExtRequestCache extends Open {
  bids?: { returnCreative?: boolean; ttlseconds?: number };
  vastxml?: { returnCreative?: boolean; ttlseconds?: number };
}

export interface ExtRequestPrebid extends Open {
  aliases?: Record<string, string>;
  aliasgvlids?: Record<string, number>;
  targeting?: ExtRequestTargeting;
  cache?: ExtRequestCache;
  debug?: boolean;
  storedrequest?: { id?: string };
  currency?: { rates?: Record<string, Record<string, number>>; usepbsrates?: boolean };
  bidadjustmentfactors?: Record<string, number>;
  channel?: { name?: string; version?: string };
  nosale?: string[];
  auctiontimestamp?: number;
  integration?: string;
}

export interface BidRequest extends Open {
  id: string;
  imp: Imp[];
  site?: Site;
  app?: App;
  dooh?: Open;
  device?: Device;
  user?: User;
  regs?: Regs;
  source?: Source;
  test?: number;
  at?: number;
  tmax?: number;
  cur?: string[];
  bcat?: string[];
  badv?: string[];
  ext?: Open & { prebid?: ExtRequestPrebid };
}

/** OpenRTB 2.6 `bid.mtype`: 1 banner, 2 video, 3 audio, 4 native. */
export type MarkupType = 1 | 2 | 3 | 4;
export type MediaType = 'banner' | 'video' | 'audio' | 'native';

export interface Bid extends Open {
  id: string;
  impid: string;
  price: number;
  adm?: string;
  nurl?: string;
  burl?: string;
  adid?: string;
  adomain?: string[];
  cid?: string;
  crid?: string;
  cat?: string[];
  dealid?: string;
  w?: number;
  h?: number;
  mtype?: number;
  exp?: number;
  ext?: Open;
}

export interface SeatBid extends Open {
  seat?: string;
  bid: Bid[];
}

export interface BidResponse extends Open {
  id: string;
  seatbid?: SeatBid[];
  bidid?: string;
  cur?: string;
  nbr?: number;
  ext?: Open;
}
