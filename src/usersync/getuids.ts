import { nullProtoRecord } from '../core/own-keys.js';
import type { UidsCookie } from './uids-cookie.js';

/**
 * `GET /getuids`'s body, as Prebid Server writes it: `{"buyeruids":{"<family>":"<uid>",…}}` with
 * every id of the cookie, expired ones included, families in sorted order (Go's JSON encoder),
 * and a newline; `{}` when there is none (an opted-out cookie has none).
 */
export const getUidsBody = (cookie: UidsCookie): string => {
  if (cookie.uids.size === 0) return '{}\n';
  // Null prototype: a family may be named __proto__.
  const buyeruids = nullProtoRecord<string>();
  for (const family of [...cookie.uids.keys()].sort()) buyeruids[family] = cookie.uids.get(family)!.uid;
  return `${JSON.stringify({ buyeruids })}\n`;
};
