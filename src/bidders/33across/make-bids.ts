import type { Bid, MediaType } from '../../openrtb/types.js';
import type { ResponseData } from '../adapter.js';
import { readBidsInUsd } from '../go-bid-response.js';
import type { AdapterBids } from '../go-bid-response.js';
import { isObject } from '../json-guards.js';

/** A bid's media type: video when its `ext.ttx.mediaType` says `video`, banner otherwise. */
export const bidType = (bid: Bid): MediaType => {
  const ext: unknown = bid.ext;
  const ttx = isObject(ext) ? ext.ttx : undefined;
  return isObject(ttx) && ttx.mediaType === 'video' ? 'video' : 'banner';
};

/** Reads 33Across's answer to one call: every bid as sent, typed by {@link bidType}, in USD ({@link readBidsInUsd}). */
export const makeBids = (response: ResponseData): AdapterBids => readBidsInUsd(response, bidType);
