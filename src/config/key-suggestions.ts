/**
 * "Did you mean" for an unknown configuration key: the valid keys at the same level that are
 * nearest in spelling, else the keys of that name (or a near one) elsewhere in the schema, and
 * the home here of the Prebid Server keys a pasted Prebid Server config brings along. Pure;
 * runs only while a config is refused, so nothing here is on a hot path.
 */

/** The part of a JSON schema the suggestions read. */
export interface KeySchemaNode {
  readonly properties?: Readonly<Record<string, KeySchemaNode>>;
}

/** Suggestions given at most, nearest first. */
const MAX_SUGGESTIONS = 3;
/** Keys longer than this are compared with nothing (the distance table grows with the square). */
const MAX_COMPARED_LENGTH = 64;

/**
 * Prebid Server keys whose home here has another name or path (a key of the same name elsewhere,
 * such as `port` or `gdpr`, is found by the schema search): dotted path as pasted → paths here.
 */
const PREBID_SERVER_KEYS: ReadonlyMap<string, readonly string[]> = new Map([
  ['account_required', ['accounts.required']],
  ['auction_timeouts_ms', ['auction.default_timeout_ms', 'auction.max_timeout_ms']],
  ['auction_timeouts_ms.default', ['auction.default_timeout_ms']],
  ['auction_timeouts_ms.max', ['auction.max_timeout_ms']],
  ['max_request_size', ['auction.max_request_bytes']],
  ['currency_converter', ['auction.currency']],
  ['recaptcha_secret', ['user_sync.recaptcha.secret']],
  ['http_client', ['auction.max_connections_per_host']],
  ['stored_amp_req', ['stored_requests']],
  ['stored_video_req', ['stored_requests']],
  ['cache.scheme', ['auction.cache.url']],
  ['cache.host', ['auction.cache.url']],
  ['cache.query', ['auction.cache.url']],
]);

/** The units keys end in: a key written without its unit is one edit from the key. */
const UNIT_SUFFIX = /_(ms|seconds|bytes|days)$/;

/** Lower case, `-` as `_`: `Storage_Path` and `storage-path` are one key misspelt, not two. */
const normalise = (key: string): string => key.toLowerCase().replaceAll('-', '_');

/**
 * Optimal string alignment distance (Damerau-Levenshtein where no substring is edited twice):
 * insertions, deletions, substitutions and swaps of two neighbours each cost 1.
 */
export const editDistance = (a: string, b: string): number => {
  // Three rows of the table: the one before the last, the last, and the one being filled.
  let before = new Array<number>(b.length + 1).fill(0);
  let last = Array.from({ length: b.length + 1 }, (_, j) => j);
  for (let i = 1; i <= a.length; i++) {
    const row = [i];
    for (let j = 1; j <= b.length; j++) {
      const cost = a[i - 1] === b[j - 1] ? 0 : 1;
      let d = Math.min(last[j]! + 1, row[j - 1]! + 1, last[j - 1]! + cost);
      if (i > 1 && j > 1 && a[i - 1] === b[j - 2] && a[i - 2] === b[j - 1]) d = Math.min(d, before[j - 2]! + 1);
      row.push(d);
    }
    before = last;
    last = row;
  }
  return last[b.length]!;
};

/**
 * The candidates nearest to `key` (all those at the least distance, at most three), or none
 * when none is near: within 40% of the key's length (at least 1), ignoring case and `-`/`_`. A
 * candidate that is the key with its unit added (`timeout` → `timeout_ms`) counts as 1 away.
 */
export const nearestKeys = (key: string, candidates: Iterable<string>): string[] => {
  const wanted = normalise(key);
  if (wanted.length > MAX_COMPARED_LENGTH) return [];
  const limit = Math.max(1, Math.floor(wanted.length * 0.4));
  let best = Infinity;
  let nearest: string[] = [];
  for (const candidate of candidates) {
    const c = normalise(candidate);
    if (c.length > MAX_COMPARED_LENGTH) continue;
    const d = c.replace(UNIT_SUFFIX, '') === wanted ? 1 : editDistance(wanted, c);
    if (d > limit || d > best) continue;
    if (d < best) [best, nearest] = [d, []];
    nearest.push(candidate);
  }
  return nearest.slice(0, MAX_SUGGESTIONS);
};

/** Every path of `schema` through declared properties (not into maps or lists), by last key. */
const pathsByKey = (schema: KeySchemaNode): Map<string, string[]> => {
  const out = new Map<string, string[]>();
  const walk = (node: KeySchemaNode, prefix: string): void => {
    for (const [key, child] of Object.entries(node.properties ?? {})) {
      const path = prefix === '' ? key : `${prefix}.${key}`;
      out.set(key, [...(out.get(key) ?? []), path]);
      walk(child, path);
    }
  };
  walk(schema, '');
  return out;
};

/**
 * Valid paths to suggest for the unknown key `key` of the object at `parentPath` (dotted, '' for
 * the root) whose schema is `parent`; `root` is the whole schema. Empty when nothing is near.
 */
export const suggestKeys = (root: KeySchemaNode, parent: KeySchemaNode, parentPath: string, key: string): string[] => {
  const join = (k: string): string => (parentPath === '' ? k : `${parentPath}.${k}`);
  const known = PREBID_SERVER_KEYS.get(join(key));
  if (known !== undefined) return [...known];
  const siblings = nearestKeys(key, Object.keys(parent.properties ?? {}));
  if (siblings.length > 0) return siblings.map(join);
  // Nothing near at this level: a key of that name (or a near one) in another section, as a
  // Prebid Server config has `port` where this one has `server.port`.
  const elsewhere = pathsByKey(root);
  const depth = (path: string): number => path.split('.').length;
  return nearestKeys(key, elsewhere.keys())
    .flatMap((k) => elsewhere.get(k) ?? [])
    .filter((path) => path !== parentPath && !path.startsWith(`${join(key)}.`))
    .sort((a, b) => depth(a) - depth(b))
    .slice(0, MAX_SUGGESTIONS);
};

/** `did you mean a, b or c?`, or '' without suggestions. */
export const didYouMean = (paths: readonly string[]): string => {
  if (paths.length === 0) return '';
  const last = paths[paths.length - 1]!;
  return `did you mean ${paths.length === 1 ? last : `${paths.slice(0, -1).join(', ')} or ${last}`}?`;
};
