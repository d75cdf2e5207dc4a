import type { Bid, MediaType } from '../../openrtb/types.js';
import type { ResponseData } from '../adapter.js';
import { readBidsInUsd } from '../go-bid-response.js';
import type { AdapterBids } from '../go-bid-response.js';

const MTYPE_TYPES: ReadonlyMap<number, MediaType> = new Map<number, MediaType>([
  [1, 'banner'],
  [2, 'video'],
  [3, 'audio'],
  [4, 'native'],
]);

/** A bid's media type from its `mtype`: banner when it has none or names no known type. */
export const bidType = (bid: Bid): MediaType => (typeof bid.mtype === 'number' ? MTYPE_TYPES.get(bid.mtype) : undefined) ?? 'banner';

/** Reads Equativ's answer to one call: every bid as sent, typed by {@link bidType}, in USD ({@link readBidsInUsd}). */
export const makeBids = (response: ResponseData): AdapterBids => readBidsInUsd(response, bidType);
