import type { Format } from '../openrtb/types.js';

/** The query of `GET /openrtb2/amp`, read: every parameter of the interface's table. */
export interface AmpQuery {
  readonly tagId?: string;
  readonly account?: string;
  readonly width?: number;
  readonly height?: number;
  readonly overrideWidth?: number;
  readonly overrideHeight?: number;
  /** `ms`: the sizes it lists, in order. */
  readonly multiSize: readonly Format[];
  readonly curl?: string;
  readonly slot?: string;
  readonly timeoutMs?: number;
  /** `targeting`: the URL-decoded JSON text, parsed later (an invalid one is a warning). */
  readonly targeting?: string;
  /** `consent_string`, else `gdpr_consent`. */
  readonly consent?: string;
  readonly consentType?: string;
  readonly gdprApplies?: string;
  readonly additionalConsent?: string;
  readonly debug: boolean;
}

/** A query value as a string: the first of a repeated parameter, `undefined` when absent or empty. */
export type QueryReader = (name: string) => string | undefined;

const positiveInt = (value: string | undefined): number | undefined => {
  if (value === undefined || !/^\d{1,6}$/.test(value.trim())) return undefined;
  const n = Number(value.trim());
  return n > 0 ? n : undefined;
};

/**
 * `ms` as AMP writes it, `300x250,728x90` (spaces allowed). Prebid Server drops the whole list
 * when one size does not parse; so does this, with a warning.
 */
export const parseMultiSize = (value: string | undefined): { sizes: Format[]; warning?: string } => {
  if (value === undefined || value.trim() === '') return { sizes: [] };
  const sizes: Format[] = [];
  for (const part of value.split(',')) {
    const m = /^\s*(\d{1,6})\s*x\s*(\d{1,6})\s*$/i.exec(part);
    if (m === null || Number(m[1]) === 0 || Number(m[2]) === 0) return { sizes: [], warning: `ms: "${value}" is not a list of <w>x<h> sizes; ignored` };
    sizes.push({ w: Number(m[1]), h: Number(m[2]) });
  }
  return { sizes };
};

/** Reads the AMP query. Never throws: a value that does not parse is absent, with a warning. */
export const readAmpQuery = (get: QueryReader): { query: AmpQuery; warnings: string[] } => {
  const warnings: string[] = [];
  const int = (name: string): number | undefined => {
    const raw = get(name);
    const n = positiveInt(raw);
    if (raw !== undefined && n === undefined) warnings.push(`${name}: "${raw}" is not a positive integer; ignored`);
    return n;
  };
  const ms = parseMultiSize(get('ms'));
  if (ms.warning !== undefined) warnings.push(ms.warning);
  // Filled key by key, absent values left out: fourteen computed-key spreads cost about 2% of an
  // AMP call (docs/performance.md).
  const query: { -readonly [K in keyof AmpQuery]: AmpQuery[K] } = { multiSize: ms.sizes, debug: get('debug') === '1' };
  const set = <K extends keyof AmpQuery>(key: K, value: AmpQuery[K] | undefined): void => {
    if (value !== undefined) query[key] = value;
  };
  set('tagId', get('tag_id'));
  set('account', get('account'));
  set('width', int('w'));
  set('height', int('h'));
  set('overrideWidth', int('ow'));
  set('overrideHeight', int('oh'));
  set('curl', get('curl'));
  set('slot', get('slot'));
  set('timeoutMs', int('timeout'));
  set('targeting', get('targeting'));
  set('consent', get('consent_string') ?? get('gdpr_consent'));
  set('consentType', get('consent_type'));
  set('gdprApplies', get('gdpr_applies'));
  set('additionalConsent', get('addtl_consent'));
  return { query, warnings };
};
