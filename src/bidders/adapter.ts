import type { TSchema } from 'typebox';
import type { Bid, BidRequest, MediaType } from '../openrtb/types.js';

/**
 * The codes of a bidder's entries in `ext.errors` / `ext.warnings` (and AMP's `errors`), as
 * Prebid Server numbers them.
 */
export const BidderErrorCode = {
  NONE: 0,
  TIMEOUT: 1,
  BAD_INPUT: 2,
  BAD_SERVER_RESPONSE: 3,
  UNKNOWN: 999,
} as const;
export type BidderErrorCode = (typeof BidderErrorCode)[keyof typeof BidderErrorCode];

/** A problem an adapter reports instead of throwing: it becomes an entry of `ext.errors.<bidder>`. */
export interface BidderError {
  readonly code: BidderErrorCode;
  readonly message: string;
}

export const badInput = (message: string): BidderError => ({ code: BidderErrorCode.BAD_INPUT, message });
export const badServerResponse = (message: string): BidderError => ({ code: BidderErrorCode.BAD_SERVER_RESPONSE, message });

/** One outgoing HTTP call an adapter asks the exchange to make. */
export interface RequestData {
  readonly method: 'GET' | 'POST';
  readonly uri: string;
  /** The body as text (JSON for every adapter so far); absent for a GET. */
  readonly body?: string;
  /** Headers to send; the exchange adds none but `content-length` and `accept-encoding`. */
  readonly headers: Readonly<Record<string, string>>;
  /** The imps this call bids on, so a failure can be reported against them. */
  readonly impIds: readonly string[];
}

/** What came back for one {@link RequestData}; only 200 answers reach `makeBids`. */
export interface ResponseData {
  readonly status: number;
  readonly headers: Readonly<Record<string, string | string[] | undefined>>;
  /** The body, decompressed, as text. */
  readonly body: string;
}

/** A bid with what the adapter knows of it that OpenRTB does not carry. */
export interface TypedBid {
  readonly bid: Bid;
  readonly type: MediaType;
  /** Video bids: the creative's duration in seconds and its primary category, when known. */
  readonly video?: { readonly duration?: number; readonly primaryCategory?: string };
  readonly dealPriority?: number;
  /** A seat other than the bidder code (for adapters answering for several seats). */
  readonly seat?: string;
}

/**
 * A Protected Audience (FLEDGE) auction config a bidder answered for one imp: opaque to the
 * exchange, which answers it in `ext.prebid.fledge.auctionconfigs` for imps that allow an
 * on-device auction (Prebid Server's `FledgeAuctionConfig`).
 */
export interface FledgeAuctionConfig {
  readonly impId: string;
  readonly config: unknown;
}

/** The bids of one answer, in their currency (ISO 4217; the exchange converts). */
export interface BidderResponse {
  readonly currency: string;
  readonly bids: readonly TypedBid[];
  /** Protected Audience auction configs of the answer, apart from its bids (Prebid Server's `FledgeAuctionConfigs`). */
  readonly fledgeAuctionConfigs?: readonly FledgeAuctionConfig[];
}

/**
 * What the host configured for a bidder beyond its endpoint, and facts of this server some
 * adapters send (Prebid Server's `config.Adapter` extras and `config.Server`).
 */
export interface AdapterHostConfig {
  /** This server's public base URL (`server.external_url`). */
  readonly externalUrl: string;
  /** openbid's version, where an adapter sends the server's version (Prebid Server's `version.Ver`). */
  readonly serverVersion: string;
  /** `adapters.<code>.extra_info`: free text its adapter reads (Prebid Server's `extra_info`); empty when unset. */
  readonly extraInfo: string;
  /** `adapters.<code>.xapi`: host credentials (Rubicon's XAPI user, password and tracker); absent until set. */
  readonly xapi?: { readonly username: string; readonly password: string; readonly tracker: string };
}

/** What the exchange gives an adapter besides the request. */
export interface RequestContext {
  /** The endpoint to call: the adapter's default, or `adapters.<code>.endpoint` from the config. */
  readonly endpoint: string;
  /** The bidder code this call is for (an alias keeps its own name). */
  readonly bidderCode: string;
  /**
   * Converts an amount between currencies with the auction's rates. Throws an `Error` saying which
   * rate is missing when it cannot; an adapter turns that into a bad-input error.
   */
  convertCurrency(amount: number, from: string, to: string): number;
  /** `Sec-GPC: 1` was on the incoming request. */
  readonly globalPrivacyControl: boolean;
  /** The endpoint the auction came in through (Prebid Server's `PbsEntryPoint`). */
  readonly entryPoint: 'auction' | 'amp';
  /** The host's settings for this bidder and this server's facts. */
  readonly host: AdapterHostConfig;
}

/**
 * Port: a bidder adapter. It does no I/O: it turns the request (already cut down to this bidder's
 * imps, with its params in `imp[].ext.bidder`) into HTTP calls, and each call's answer into bids.
 * Both methods are pure, synchronous and must not throw for any input: a problem is a
 * {@link BidderError} in the result (a throw is caught and reported as code 999).
 */
export interface Adapter {
  makeRequests(request: BidRequest, context: RequestContext): { requests: RequestData[]; errors: BidderError[] };
  /**
   * Called for each call that answered 200 (a 204 is a no-bid and never reaches here; other
   * statuses are reported by the exchange). `request` is the one given to `makeRequests`.
   */
  makeBids(request: BidRequest, call: RequestData, response: ResponseData): { response?: BidderResponse; errors: BidderError[] };
}

/** One user sync endpoint of a bidder, as Prebid Server's bidder info has it (`userSync.iframe` / `.redirect`). */
export interface SyncEndpointInfo {
  /**
   * The bidder's sync URL. `{{.RedirectURL}}` becomes this server's `/setuid` URL, escaped;
   * `{{.GDPR}}`, `{{.GDPRConsent}}`, `{{.USPrivacy}}`, `{{.GPP}}`, `{{.GPPSID}}` (or `{{gdpr}}`,
   * `{{gdpr_consent}}`, `{{us_privacy}}`, `{{gpp}}`, `{{gpp_sid}}`) the request's values.
   */
  readonly url: string;
  /** The bidder's own placeholder for its user id, put in the redirect URL's `uid`; may be empty. */
  readonly userMacro: string;
  /** A redirect URL template replacing `user_sync.redirect_url` for this endpoint. */
  readonly redirectUrl?: string;
}

/** How a bidder syncs its user ids (Prebid Server's `userSync` bidder info). */
export interface UserSyncInfo {
  /** The cookie family its ids are kept under in the `uids` cookie; the bidder code when absent. */
  readonly key?: string;
  readonly iframe?: SyncEndpointInfo;
  readonly redirect?: SyncEndpointInfo;
  /** Its sync URLs answer CORS requests (`supportCORS` in the `/cookie_sync` answer). */
  readonly supportCors?: boolean;
}

/** Static facts of an adapter: where it calls, what it bids on, who it is in the GVL. */
export interface AdapterInfo {
  /** The endpoint when the config names none; may hold macros the adapter fills itself. */
  readonly endpoint: string;
  /** Media types it bids on for site and app traffic; imps offering none of them are not sent. */
  readonly mediaTypes: { readonly site: readonly MediaType[]; readonly app: readonly MediaType[] };
  /** IAB Global Vendor List id, for GDPR enforcement; absent when the bidder has none. */
  readonly gvlVendorId?: number;
  /** JSON Schema (TypeBox) of `imp[].ext.bidder`; a param that fails it is a bad-input error. */
  readonly paramsSchema: TSchema;
  /**
   * `gzip`: the exchange sends request bodies gzip-compressed with `Content-Encoding: gzip`
   * (Prebid Server's `endpointCompression`); absent: as the adapter wrote them.
   */
  readonly endpointCompression?: 'gzip';
  /**
   * The OpenRTB version the bidder reads (Prebid Server's `openrtb.version`). Absent or `2.5`: the
   * exchange moves the 2.6 fields Prebid Server moves back into their 2.5 `ext` places before the
   * adapter sees the request (`src/openrtb/convert-down.ts`).
   */
  readonly openrtbVersion?: '2.5' | '2.6';
  /** How its user ids are synced; absent: it has no sync of its own (config may give one). */
  readonly userSync?: UserSyncInfo;
  /** Who to write to about the adapter (Prebid Server's `maintainer.email`); `/info/bidders/<name>` shows it. */
  readonly maintainer?: { readonly email: string };
  /**
   * Media types it bids on per channel (Prebid Server's `capabilities`); a channel that is absent
   * is not supported. When absent, `mediaTypes` gives site and app and there is no DOOH.
   */
  readonly capabilities?: ChannelCapabilities;
  /** Shipped off (Prebid Server's `disabled`): a bidder runs only once `adapters.<code>` configures it. */
  readonly disabled?: boolean;
  /** For a built-in alias (Prebid Server's `aliasOf`): the bidder whose adapter it runs, e.g. `adf` for `adform`. */
  readonly aliasOf?: string;
  /** The default of `adapters.<code>.extra_info` (Prebid Server's `extra_info`), given to the adapter as `context.host.extraInfo`. */
  readonly extraInfo?: string;
}

/** Media types per channel, as Prebid Server's bidder info `capabilities` lists them. */
export interface ChannelCapabilities {
  readonly site?: readonly MediaType[];
  readonly app?: readonly MediaType[];
  readonly dooh?: readonly MediaType[];
}

/** The media types per channel of an adapter: its `capabilities`, else site and app from `mediaTypes` (an empty list is no support). */
export const capabilitiesOf = (info: AdapterInfo): ChannelCapabilities => {
  if (info.capabilities !== undefined) return info.capabilities;
  const { site, app } = info.mediaTypes;
  return { ...(app.length > 0 ? { app } : {}), ...(site.length > 0 ? { site } : {}) };
};

/** An adapter with its info, as the registry holds it. */
export interface AdapterModule {
  readonly info: AdapterInfo;
  readonly adapter: Adapter;
}
