/**
 * Sync URL templates as Prebid Server builds them: the redirect back to `/setuid` is filled at
 * start (its macros, then query-escaped around the macros that stay), put into the bidder's URL,
 * and the privacy macros are filled per request with the request's values, unescaped (Go's
 * text/template does not escape). Pure.
 */

/** The privacy values of one `/cookie_sync` request, as its sync URLs carry them. */
export interface SyncMacroValues {
  readonly gdpr: string;
  readonly gdprConsent: string;
  readonly usPrivacy: string;
  readonly gpp: string;
  readonly gppSid: string;
}

/** Prebid Server's default `user_sync.redirect_url`; `{{.SyncerKey}}` is filled with the cookie family here (see docs/user-sync.md). */
export const DEFAULT_REDIRECT_TEMPLATE =
  '{{.ExternalURL}}/setuid?bidder={{.SyncerKey}}&gdpr={{.GDPR}}&gdpr_consent={{.GDPRConsent}}&gpp={{.GPP}}&gpp_sid={{.GPPSID}}&f={{.SyncType}}&uid={{.UserMacro}}';

/** Request macros by both spellings: Prebid Server Go's (`{{.GDPR}}`) and Java's (`{{gdpr}}`). */
const REQUEST_MACROS: ReadonlyMap<string, keyof SyncMacroValues> = new Map([
  ['.GDPR', 'gdpr'],
  ['.GDPRConsent', 'gdprConsent'],
  ['.USPrivacy', 'usPrivacy'],
  ['.GPP', 'gpp'],
  ['.GPPSID', 'gppSid'],
  ['gdpr', 'gdpr'],
  ['gdpr_consent', 'gdprConsent'],
  ['us_privacy', 'usPrivacy'],
  ['gpp', 'gpp'],
  ['gpp_sid', 'gppSid'],
]);

/** Any `{{ … }}`. */
const ANY_MACRO = /\{\{.*?\}\}/g;
const MACRO_NAME = /^\{\{\s*(\.?[A-Za-z_]*?)\s*\}\}$/;
/** What escaping leaves alone: Go's `{{\s*\..*?\s*}}`, and the undotted request macros. Anything else (`{{UID}}`) is escaped. */
const KEPT_MACRO = /\{\{\s*\..*?\s*\}\}|\{\{\s*(?:gdpr|gdpr_consent|us_privacy|gpp|gpp_sid)\s*\}\}/g;

/**
 * Go's `url.QueryEscape`: every byte but `A-Z a-z 0-9 - _ . ~` as `%XX` (upper case), a space as
 * `+`. `encodeURIComponent` also keeps `! ' ( ) *`, which Go escapes.
 */
export const goQueryEscape = (s: string): string =>
  encodeURIComponent(s)
    .replace(/[!'()*]/g, (c) => `%${c.charCodeAt(0).toString(16).toUpperCase()}`)
    .replaceAll('%20', '+');

/** Query-escapes `s` except its `{{…}}` macros, which stay as they are (Prebid Server's `escapeTemplate`). */
export const escapeTemplate = (s: string): string => {
  let out = '';
  let at = 0;
  for (const m of s.matchAll(KEPT_MACRO)) {
    out += goQueryEscape(s.slice(at, m.index)) + m[0];
    at = m.index + m[0].length;
  }
  return out + goQueryEscape(s.slice(at));
};

/** What the redirect template's start-time macros are filled with. */
export interface RedirectValues {
  readonly externalUrl: string;
  /** The cookie family (`{{.SyncerKey}}`, `{{.BidderName}}`). */
  readonly family: string;
  /** `b` for an iframe sync, `i` for a redirect (image) sync. */
  readonly syncType: 'b' | 'i';
  readonly userMacro: string;
}

/** The bidder's URL with `{{.RedirectURL}}` replaced by the escaped redirect URL; request macros left for {@link fillSyncUrl}. */
export const buildSyncTemplate = (bidderUrl: string, redirectTemplate: string, v: RedirectValues): string => {
  const redirect = redirectTemplate
    .replace(/\{\{\s*\.SyncerKey\s*\}\}/g, () => v.family)
    .replace(/\{\{\s*\.BidderName\s*\}\}/g, () => v.family)
    .replace(/\{\{\s*\.SyncType\s*\}\}/g, () => v.syncType)
    .replace(/\{\{\s*\.UserMacro\s*\}\}/g, () => v.userMacro)
    .replace(/\{\{\s*\.ExternalURL\s*\}\}/g, () => v.externalUrl);
  const escaped = escapeTemplate(redirect);
  return bidderUrl.replace(/\{\{\s*\.RedirectURL\s*\}\}|\{\{redirect_url\}\}/g, () => escaped);
};

/** The macros of a template that are not request macros (a typo, or one only Prebid Server knows). */
export const unknownMacros = (template: string): string[] => {
  const out: string[] = [];
  for (const m of template.matchAll(ANY_MACRO)) {
    const name = MACRO_NAME.exec(m[0])?.[1] ?? m[0];
    if (!REQUEST_MACROS.has(name)) out.push(m[0]);
  }
  return out;
};

/** The template with the request's values in, as they are. */
export const fillSyncUrl = (template: string, values: SyncMacroValues): string =>
  template.replace(ANY_MACRO, (macro) => {
    const key = REQUEST_MACROS.get(MACRO_NAME.exec(macro)?.[1] ?? '');
    return key === undefined ? macro : values[key];
  });
