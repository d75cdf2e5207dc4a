import type { FledgeAuctionConfig } from '../adapter.js';
import { isAbsent, isObject } from '../json-guards.js';
import { goField } from './go-field.js';

/** An `ext.igi[]` entry as Go reads it, or `false` when its types do not decode. */
const readIgi = (igi: unknown): { impId: string; firstConfig: unknown } | undefined | false => {
  // Go holds entries as pointers: null is a nil entry (Prebid Server would crash on it; here it is skipped).
  if (igi === null) return undefined;
  if (!isObject(igi)) return false;
  const impId = goField(igi, 'impid');
  if (!isAbsent(impId) && typeof impId !== 'string') return false;
  const igs = goField(igi, 'igs');
  if (!isAbsent(igs) && !Array.isArray(igs)) return false;
  const list = (igs ?? []) as unknown[];
  if (list.some((ig) => ig !== null && !isObject(ig))) return false;
  // Only the first interest-group seller's config counts, as in Prebid Server.
  const first = list[0];
  return { impId: impId ?? '', firstConfig: isObject(first) ? goField(first, 'config') : undefined };
};

/**
 * The Protected Audience auction configs of Criteo's answer: for each `ext.igi[]` entry, the
 * `config` of its first `igs[]` entry, for its `impid`. An ext whose `igi` does not decode (a
 * wrong type anywhere in it) gives none, without an error, as Prebid Server ignores it; so does
 * an entry without `igs` or whose first `igs` has no (or a null) `config`. `undefined` when there
 * are none.
 */
export const readFledgeAuctionConfigs = (ext: unknown): FledgeAuctionConfig[] | undefined => {
  if (isAbsent(ext)) return undefined;
  if (!isObject(ext)) return undefined;
  const igi = goField(ext, 'igi');
  if (isAbsent(igi)) return undefined;
  if (!Array.isArray(igi)) return undefined;
  const entries = (igi as unknown[]).map(readIgi);
  if (entries.includes(false)) return undefined;
  const configs: FledgeAuctionConfig[] = [];
  for (const entry of entries) {
    if (entry === undefined || entry === false || isAbsent(entry.firstConfig)) continue;
    configs.push({ impId: entry.impId, config: entry.firstConfig });
  }
  return configs.length > 0 ? configs : undefined;
};
