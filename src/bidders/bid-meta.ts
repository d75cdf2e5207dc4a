import { kindProblem } from './go-bid-response.js';
import type { FieldKind } from './go-bid-response.js';
import { isAbsent, isObject } from './json-guards.js';

/**
 * Prebid's bid meta (`seatbid[].bid[].ext.prebid.meta`): the members Prebid Server's struct for it
 * knows, in its order, with the JSON each decodes from in Go. `adaptercode` is the exchange's to write.
 */
const BID_META_KINDS: ReadonlyMap<string, FieldKind> = new Map<string, FieldKind>([
  ['adaptercode', 'string'],
  ['advertiserDomains', 'strings'],
  ['advertiserId', 'int'],
  ['advertiserName', 'string'],
  ['agencyId', 'int'],
  ['agencyName', 'string'],
  ['brandId', 'int'],
  ['brandName', 'string'],
  ['dchain', 'json'],
  ['demandSource', 'string'],
  ['mediaType', 'string'],
  ['networkId', 'int'],
  ['networkName', 'string'],
  ['primaryCatId', 'string'],
  ['rendererName', 'string'],
  ['rendererVersion', 'string'],
  ['rendererData', 'json'],
  ['rendererUrl', 'string'],
  ['secondaryCatIds', 'strings'],
  ['seat', 'string'],
]);

/** The names of the bid meta members Prebid Server knows, in its struct's order. */
export const BID_META_NAMES: readonly string[] = [...BID_META_KINDS.keys()];

/**
 * Why `meta` would not decode as Prebid Server's bid meta (`<member> is not <kind>`, or `is not
 * an object`); `undefined` when it would. Absent or `null` decodes (as an empty meta); unknown
 * members are not looked at (Go ignores them). Members are read in the meta's own order, as Go's
 * decoder meets them, so the first bad one is named.
 */
export const bidMetaProblem = (meta: unknown): string | undefined => {
  if (isAbsent(meta)) return undefined;
  if (!isObject(meta)) return 'is not an object';
  // Own keys, not the 20 known names: a meta holds a few members, and this runs for every bid.
  for (const name of Object.keys(meta)) {
    const kind = BID_META_KINDS.get(name);
    const problem = kind === undefined ? undefined : kindProblem(kind, meta[name]);
    if (problem !== undefined) return `${name} ${problem}`;
  }
  return undefined;
};

/** Go's `omitempty`: null, '', 0 and empty lists are not written. */
const isEmpty = (v: unknown): boolean => isAbsent(v) || v === '' || v === 0 || (Array.isArray(v) && v.length === 0);

/**
 * The meta as Prebid Server writes it back: its known members that are set, a `null` in a list of
 * strings as `''` (as Go decodes it), unknown members and `adaptercode` dropped. `meta` must have
 * passed {@link bidMetaProblem}. A fresh object with no member from the bidder but these.
 */
export const knownBidMeta = (meta: Readonly<Record<string, unknown>>): Record<string, unknown> => {
  const out: Record<string, unknown> = {};
  for (const name of Object.keys(meta)) {
    const kind = BID_META_KINDS.get(name);
    const value = meta[name];
    if (kind === undefined || name === 'adaptercode' || isEmpty(value)) continue;
    out[name] = kind === 'strings' && (value as unknown[]).includes(null) ? (value as unknown[]).map((x) => x ?? '') : value;
  }
  return out;
};
