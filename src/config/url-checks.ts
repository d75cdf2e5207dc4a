import { valueText } from './redact.js';

/** A URL-valued key whose value is no http(s) URL: where, and the `path: problem (value …)` line. */
export interface UrlProblem {
  readonly path: string;
  readonly text: string;
}

/** A URL-valued key: `required` refuses an empty value, `template` fills `{{…}}` macros before the check. */
interface UrlKey {
  readonly path: readonly string[];
  readonly required?: boolean;
  readonly template?: boolean;
  readonly what?: string;
}

/** Every URL-valued key outside `adapters`: each must be an absolute http(s) URL when set. */
const URL_KEYS: readonly UrlKey[] = [
  { path: ['server', 'external_url'], required: true },
  { path: ['auction', 'cache', 'url'], what: 'an absolute http(s) URL of a /cache endpoint' },
  { path: ['auction', 'cache', 'public_url'] },
  { path: ['auction', 'currency', 'url'] },
  { path: ['analytics', 'http', 'endpoint'] },
  { path: ['accounts', 'http', 'endpoint'] },
  { path: ['stored_requests', 'http', 'endpoint'] },
  { path: ['privacy', 'gdpr', 'vendor_list', 'url'] },
  { path: ['privacy', 'gdpr', 'vendor_list', 'archive_url'] },
  { path: ['user_sync', 'redirect_url'], template: true },
  { path: ['user_sync', 'recaptcha', 'verify_url'] },
  { path: ['host_cookie', 'opt_out_url'] },
  { path: ['host_cookie', 'opt_in_url'] },
];

/** The URL-valued keys of one `adapters.<code>` entry, all templates (Prebid Server's macros). */
const ADAPTER_URL_KEYS: readonly UrlKey[] = [
  { path: ['endpoint'], template: true },
  { path: ['usersync', 'redirect', 'url'], template: true },
  { path: ['usersync', 'redirect', 'redirect_url'], template: true },
  { path: ['usersync', 'iframe', 'url'], template: true },
  { path: ['usersync', 'iframe', 'redirect_url'], template: true },
];

const EXTERNAL_URL_MACRO = /\{\{\s*\.ExternalURL\s*\}\}/g;
const ANY_MACRO = /\{\{.*?\}\}/g;

/**
 * Every URL-valued key of the configuration `doc` whose value is set but no absolute http(s) URL
 * (an empty one too where the key is required). A template (a bidder's endpoint, a sync URL, the
 * redirect URL) passes when it is one with its `{{…}}` macros filled: `{{.ExternalURL}}` by a URL,
 * any other (`{{.Host}}`, `{{.AccountID}}`, `{{.RedirectURL}}`) by a plain word. `doc` need not
 * match the schema: a value that is no string, or under a path in `skip` (the schema's problems),
 * is left to the schema's message.
 */
export const urlProblems = (doc: unknown, skip: ReadonlySet<string>): UrlProblem[] => {
  const problems: UrlProblem[] = [];
  const check = (path: readonly string[], key: UrlKey): void => {
    if (path.some((_, i) => skip.has(path.slice(0, i + 1).join('.')))) return;
    const value = valueAt(doc, path);
    if (typeof value !== 'string' || (value === '' && key.required !== true)) return;
    const url = key.template === true ? value.replace(EXTERNAL_URL_MACRO, 'http://external.invalid').replace(ANY_MACRO, 'macro') : value;
    if (isHttpUrl(url)) return;
    const what = key.what ?? 'an absolute http(s) URL';
    problems.push({ path: path.join('.'), text: `${path.join('.')}: must be ${what} (value ${valueText(path[path.length - 1] ?? '', value)})` });
  };
  for (const key of URL_KEYS) check(key.path, key);
  const adapters = valueAt(doc, ['adapters']);
  if (typeof adapters === 'object' && adapters !== null) {
    for (const code of Object.keys(adapters)) {
      for (const key of ADAPTER_URL_KEYS) check(['adapters', code, ...key.path], key);
    }
  }
  return problems;
};

/** An absolute `http:` or `https:` URL with a host. */
export const isHttpUrl = (s: string): boolean => {
  try {
    const u = new URL(s);
    return (u.protocol === 'http:' || u.protocol === 'https:') && u.hostname !== '';
  } catch {
    return false;
  }
};

const valueAt = (doc: unknown, path: readonly string[]): unknown => {
  let at = doc;
  for (const s of path) {
    if (typeof at !== 'object' || at === null || !Object.hasOwn(at, s)) return undefined;
    at = (at as Record<string, unknown>)[s];
  }
  return at;
};
