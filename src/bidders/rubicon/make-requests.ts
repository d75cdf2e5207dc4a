import type { BidRequest, Imp } from '../../openrtb/types.js';
import { badInput } from '../adapter.js';
import type { BidderError, RequestContext, RequestData } from '../adapter.js';
import { withGoQueryParam } from '../go-url.js';
import { isAbsent, isObject } from '../json-guards.js';
import { convertUpTo26 } from './convert-up.js';
import { parseGoInt, readImpExt } from './imp-ext.js';
import type { RubiconImpExt } from './imp-ext.js';
import { impTarget, rubiconImpExt, splitImp, withUsdFloor } from './imp.js';
import { withOneMediaType } from './media.js';
import { rubiconDevice, rubiconRegs, rubiconSource, rubiconUser, withInventory } from './request-parts.js';
import { withKeys } from '../../core/own-keys.js';

// Rubicon reads at most this many blocked advertiser domains.
const BADV_LIMIT = 50;

/** `ext.prebid.multibid[0].maxbids` when the request ext reads and sets it. */
export const maxBidsOf = (request: BidRequest): number | undefined => {
  const prebid = isObject(request.ext) ? request.ext.prebid : undefined;
  const multibid = isObject(prebid) ? prebid.multibid : undefined;
  if (!Array.isArray(multibid) || multibid.length === 0 || !isObject(multibid[0])) return undefined;
  const maxBids = multibid[0].maxbids;
  return Number.isInteger(maxBids) ? (maxBids as number) : undefined;
};

/**
 * The endpoint with the host's XAPI tracker as `tk_xint`, the query rewritten as Go's
 * `url.Values` writes it (Go's adapter adds it even when the tracker is empty).
 */
export const endpointWithTracker = (endpoint: string, tracker: string): string => {
  try {
    new URL(endpoint, 'http://base.invalid');
  } catch {
    return endpoint;
  }
  return withGoQueryParam(endpoint, 'tk_xint', tracker, 'add');
};

/**
 * The headers of every call: JSON, Prebid Server's user agent, and Basic auth with the host's
 * XAPI credentials. Without `adapters.rubicon.xapi` no credentials are sent (as the
 * configuration promises; Prebid Server would send empty ones).
 */
export const rubiconHeaders = (context: RequestContext): Record<string, string> => {
  const headers: Record<string, string> = { 'Content-Type': 'application/json;charset=utf-8', Accept: 'application/json', 'User-Agent': 'prebid-server/1.0' };
  const xapi = context.host.xapi;
  if (xapi !== undefined) headers.Authorization = `Basic ${Buffer.from(`${xapi.username}:${xapi.password}`, 'utf8').toString('base64')}`;
  return headers;
};

/** One imp's request body, or why it cannot go. `request` is the converted (OpenRTB 2.6) request. */
const impBody = (request: BidRequest, source: Imp, ext: RubiconImpExt, context: RequestContext): { body: BidRequest } | { error: string } => {
  const facts = { login: context.host.xapi?.username ?? '', version: context.host.serverVersion, externalUrl: context.host.externalUrl };
  const target = impTarget(source, ext, request, facts);
  if ('error' in target) return target;
  const siteId = parseGoInt(ext.bidder.siteId);
  if ('error' in siteId) return siteId;
  const zoneId = parseGoInt(ext.bidder.zoneId);
  if ('error' in zoneId) return zoneId;
  const floored = withUsdFloor(withKeys(source, { ext: rubiconImpExt(ext, zoneId.value, target.target, maxBidsOf(request)), secure: 1 }), context);
  if ('error' in floored) return floored;
  // Without `cur` and `ext`, which Rubicon does not take: a copy without them rather than `delete`
  // on a copy, which would turn the body into a slow dictionary object in V8.
  const { cur: _cur, ext: _ext, ...body } = request;
  if (isObject(request.user)) {
    const user = rubiconUser(request.user, ext.bidder.visitor);
    if ('error' in user) return user;
    body.user = user.user;
  }
  if (isObject(request.device)) body.device = rubiconDevice(request.device);
  const media = withOneMediaType(floored.imp, ext.bidder);
  if ('error' in media) return media;
  const accountId = parseGoInt(ext.bidder.accountId);
  if ('error' in accountId) return accountId;
  Object.assign(body, withInventory(request, siteId.value, accountId.value));
  const sourceOut = rubiconSource(request.source);
  if (sourceOut !== undefined) body.source = sourceOut;
  const regs = rubiconRegs(request.regs);
  if (regs !== undefined) body.regs = regs;
  if (Array.isArray(request.badv) && request.badv.length > BADV_LIMIT) body.badv = request.badv.slice(0, BADV_LIMIT);
  body.imp = [media.imp];
  return { body };
};

/**
 * One POST per imp (per media type of an imp whose params say `bidonmultiformat`), each carrying
 * the whole request rewritten for Rubicon's XAPI: the request first moved to OpenRTB 2.6 places,
 * then the imp, user, device, site or app, source and regs in Rubicon's shape (see the helpers),
 * `cur` and `ext` dropped. An imp that cannot go is a bad-input error; the others still go.
 */
export const makeRequests = (request: BidRequest, context: RequestContext): { requests: RequestData[]; errors: BidderError[] } => {
  const converted = convertUpTo26(request);
  if ('error' in converted) return { requests: [], errors: [badInput(converted.error)] };
  const errors: BidderError[] = [];
  const prepared: [Imp, RubiconImpExt][] = [];
  for (const imp of converted.request.imp) {
    const ext = readImpExt(imp.ext);
    if ('error' in ext) errors.push(badInput(ext.error));
    else for (const part of splitImp(imp, ext.bidder.bidOnMultiformat)) prepared.push([part, ext]);
  }
  // No host XAPI settings, no tracker: the endpoint goes as configured.
  const xapi = context.host.xapi;
  const uri = xapi === undefined ? context.endpoint : endpointWithTracker(context.endpoint, xapi.tracker);
  const headers = rubiconHeaders(context);
  const requests: RequestData[] = [];
  for (const [imp, ext] of prepared) {
    const made = impBody(converted.request, imp, ext, context);
    if ('error' in made) errors.push(badInput(made.error));
    else requests.push({ method: 'POST', uri, body: JSON.stringify(made.body), headers, impIds: [imp.id] });
  }
  return { requests, errors };
};

/** For tests and make-bids: the one imp a call's body carries, `undefined` when it does not read. */
export const sentImp = (body: string | undefined): Imp | undefined => {
  try {
    const parsed = JSON.parse(body ?? '') as unknown;
    const imps = isObject(parsed) ? parsed.imp : undefined;
    return Array.isArray(imps) && isObject(imps[0]) && !isAbsent(imps[0]) ? (imps[0] as Imp) : undefined;
  } catch {
    return undefined;
  }
};
