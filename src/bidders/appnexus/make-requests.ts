import type { BidRequest, Imp } from '../../openrtb/types.js';
import { badInput } from '../adapter.js';
import type { BidderError, RequestContext, RequestData } from '../adapter.js';
import { appnexusImp } from './imp.js';
import { withQueryParam } from './member-uri.js';
import { readImpExt } from './params.js';
import { appnexusRequestExt, displayManagerVersion, moveSupplyChain, requestExtEntries, sortedExt } from './request-ext.js';

/** AppNexus takes at most this many imps in one request; more are sent in several. */
export const MAX_IMPS_PER_REQUEST = 10;

const HEADERS: Readonly<Record<string, string>> = { 'content-type': 'application/json;charset=utf-8', accept: 'application/json' };

type Made = { requests: RequestData[]; errors: BidderError[] };

/**
 * The imps AppNexus can take, turned into its form. An imp whose params do not name a placement
 * is left out with an error. All imps must name the same member (it goes in the URL) and agree on
 * `generate_ad_pod_id`: when they do not, nothing is sent.
 */
const collectImps = (request: BidRequest): { imps: Imp[]; member: string; errors: BidderError[]; fatal: boolean } => {
  const displayManagerVer = displayManagerVersion(request.app);
  const errors: BidderError[] = [];
  const imps: Imp[] = [];
  let member = '';
  let generateAdPodId: boolean | undefined;
  for (const imp of request.imp) {
    const read = readImpExt(imp.ext);
    if ('error' in read) {
      errors.push(badInput(read.error));
      continue;
    }
    const { params } = read;
    if (params.member !== '') {
      if (member === '') member = params.member;
      else if (member !== params.member) {
        errors.push(badInput(`all request.imp[i].ext.prebid.bidder.appnexus.member params must match. Request contained member IDs ${member} and ${params.member}`));
        return { imps: [], member, errors, fatal: true };
      }
    }
    generateAdPodId ??= params.generateAdPodId;
    if (generateAdPodId !== params.generateAdPodId) {
      errors.push(badInput('generate ad pod option should be same for all pods in request'));
      return { imps: [], member, errors, fatal: true };
    }
    imps.push(appnexusImp(imp, params, read.gpid, displayManagerVer));
  }
  return { imps, member, errors, fatal: false };
};

/**
 * AppNexus's requests, as Prebid Server's adapter makes them: the usable imps, `MAX_IMPS_PER_REQUEST`
 * to a POST, each POST the whole request with `ext.appnexus` (header-bidding source, AMP flag,
 * brand categories) and the supply chain moved to `ext.schain`; the member, when imps name one,
 * as `member_id` in the URL.
 *
 * Prebid Server also groups imps into ad pods with a generated `adpod_id` when
 * `generate_ad_pod_id` is set, but only for its `/openrtb2/video` endpoint, which openbid does not
 * have; here, as for Prebid Server's other endpoints, the flag only has to agree across imps.
 */
export const makeRequests = (request: BidRequest, context: RequestContext): Made => {
  const { imps, member, errors, fatal } = collectImps(request);
  if (fatal || imps.length === 0) return { requests: [], errors };

  const entries = requestExtEntries(request.ext);
  if ('error' in entries) return { requests: [], errors: [...errors, badInput(entries.error)] };
  const ext = new Map(entries);
  const own = appnexusRequestExt(ext, context.entryPoint === 'amp');
  if ('error' in own) return { requests: [], errors: [...errors, badInput(own.error)] };
  const moved = moveSupplyChain(request.source, ext);
  if ('error' in moved) return { requests: [], errors: [...errors, badInput(moved.error)] };
  ext.set('appnexus', own.ext);

  const uri = member === '' ? context.endpoint : withQueryParam(context.endpoint, 'member_id', member);
  const base: BidRequest = { ...request, ext: sortedExt(ext) };
  if (moved.source !== undefined) base.source = moved.source;

  const requests: RequestData[] = [];
  for (let start = 0; start < imps.length; start += MAX_IMPS_PER_REQUEST) {
    const chunk = imps.slice(start, start + MAX_IMPS_PER_REQUEST);
    requests.push({ method: 'POST', uri, body: JSON.stringify({ ...base, imp: chunk }), headers: HEADERS, impIds: chunk.map((imp) => imp.id) });
  }
  return { requests, errors };
};
