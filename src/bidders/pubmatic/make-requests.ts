import type { BidRequest, Imp, Publisher } from '../../openrtb/types.js';
import { badInput } from '../adapter.js';
import type { BidderError, RequestContext, RequestData } from '../adapter.js';
import { parseImp } from './imp.js';
import { appDisplayManager, readRequestExt } from './request-ext.js';
import type { PubmaticRequestExt, WrapperExt } from './request-ext.js';

const hasProfileAndVersion = (w: WrapperExt | undefined): boolean => w?.profile !== undefined && w.version !== undefined;

/** The publisher with PubMatic's publisher id in place of its own ("" leaves no id, as Go omits it). */
const withPublisherId = (publisher: Publisher | null | undefined, id: string): Publisher => {
  const { id: _own, ...rest } = publisher ?? {};
  return id === '' ? rest : { ...rest, id };
};

/**
 * One POST of every usable imp to PubMatic's translator. An imp PubMatic cannot take is left out
 * with an error; with none left there is no call. The publisher id and the OpenWrap wrapper come
 * from the request's bidder params first, then from the first imps that carry them; the request's
 * `ext` is replaced by PubMatic's own (`wrapper`, `acat`, `marketplace`).
 */
export const makeRequests = (request: BidRequest, context: RequestContext): { requests: RequestData[]; errors: BidderError[] } => {
  const read = readRequestExt(request.ext, context.bidderCode);
  if ('error' in read) return { requests: [], errors: [badInput(read.error)] };
  const ext = read.ext;

  const errors: BidderError[] = [];
  const imps: Imp[] = [];
  let wrapper = ext.wrapper;
  let wantWrapper = !hasProfileAndVersion(wrapper);
  let publisherId: string | undefined;
  const displayManager = appDisplayManager(request.app);
  for (const imp of request.imp) {
    const parsed = parseImp(imp, { wantWrapper, displayManager });
    if ('error' in parsed) {
      errors.push(badInput(parsed.error));
      continue;
    }
    imps.push(parsed.imp);
    if (wantWrapper && parsed.wrapper !== undefined) {
      // Each of profile and version is taken from the first imp that has it.
      wrapper ??= {};
      wrapper.profile ??= parsed.wrapper.profile;
      wrapper.version ??= parsed.wrapper.version;
      wantWrapper = !hasProfileAndVersion(wrapper);
    }
    if (publisherId === undefined && parsed.publisherId !== '') publisherId = parsed.publisherId;
  }
  if (imps.length === 0) return { requests: [], errors };

  const pubmaticExt: PubmaticRequestExt = wrapper === undefined ? ext : { ...ext, wrapper };
  const out: BidRequest = { ...request, imp: imps, ext: { ...pubmaticExt } };
  if (request.site !== undefined && request.site !== null) out.site = { ...request.site, publisher: withPublisherId(request.site.publisher, publisherId ?? '') };
  else if (request.app !== undefined && request.app !== null) out.app = { ...request.app, publisher: withPublisherId(request.app.publisher, publisherId ?? '') };

  return {
    requests: [
      {
        method: 'POST',
        uri: context.endpoint,
        body: JSON.stringify(out),
        headers: { 'content-type': 'application/json;charset=utf-8', accept: 'application/json' },
        impIds: imps.map((imp) => imp.id),
      },
    ],
    errors,
  };
};
