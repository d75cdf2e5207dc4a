import Type from 'typebox';
import type { Static, TObject, TOptional, TSchema, TSchemaOptions } from 'typebox';
import { Compile } from 'typebox/compile';
import Value from 'typebox/value';
import { deepFreeze } from './deep-freeze.js';
import { withoutErrorCap } from '../core/uncapped-errors.js';

/*
 * One schema for an account's settings, written once and built in two forms:
 *   - complete, every key with its default: `accounts.defaults` in the configuration;
 *   - deep partial, no defaults: what a source holds for one account (an `accounts.by_id` entry,
 *     a file, a Postgres row, an HTTP answer), deep-merged over the defaults.
 * Both are strict (`additionalProperties: false`): a misspelt key is an error, not a silent default.
 * The TypeScript types are derived from the schemas, so the two cannot drift.
 */

/** A setting or a group of settings, in both forms; a leaf also keeps its compiled check. */
interface Node<Full extends TSchema, Partial extends TSchema> {
  readonly full: Full;
  readonly partial: Partial;
  readonly check?: Validator;
  readonly members?: Members;
}
type Validator = ReturnType<typeof Compile>;
type Members = Record<string, Node<TSchema, TSchema>>;
type FullOf<M extends Members> = { [K in keyof M]: M[K]['full'] };
type PartialOf<M extends Members> = { [K in keyof M]: M[K]['partial'] };

/** One setting: its schema made with a default, and made without one (optional). */
const leaf = <T extends TSchema>(make: (options: TSchemaOptions) => T, value: unknown): Node<T, TOptional<T>> => {
  const bare = make({});
  return { full: make({ default: value }), partial: Type.Optional(bare) as TOptional<T>, check: Compile(bare) };
};

/** A group of settings: an object whose own default is `{}` (so its members' defaults apply). */
const group = <M extends Members>(members: M): Node<TObject<FullOf<M>>, TOptional<TObject<PartialOf<M>>>> => {
  const full = {} as Record<string, TSchema>;
  const partial = {} as Record<string, TSchema>;
  for (const [key, m] of Object.entries(members)) {
    full[key] = m.full;
    partial[key] = m.partial;
  }
  return {
    full: Type.Object(full as FullOf<M>, { additionalProperties: false, default: {} }),
    partial: Type.Optional(Type.Object(partial as PartialOf<M>, { additionalProperties: false })),
    members,
  };
};

/** Prebid's custom price granularity: buckets of `increment` up to `max`, prices with `precision` decimals. */
const CustomPriceGranularitySchema = Type.Object(
  {
    precision: Type.Optional(Type.Integer({ minimum: 0, maximum: 10 })),
    ranges: Type.Array(
      Type.Object(
        {
          min: Type.Optional(Type.Number({ minimum: 0 })),
          max: Type.Number({ exclusiveMinimum: 0 }),
          increment: Type.Number({ exclusiveMinimum: 0 }),
        },
        { additionalProperties: false },
      ),
      { minItems: 1 },
    ),
  },
  { additionalProperties: false },
);

const PriceGranularityNameSchema = Type.Enum(['low', 'medium', 'med', 'high', 'auto', 'dense']);

/** A price granularity by name (Prebid's `low` … `dense`; `med` is `medium`) or custom ranges. */
export const PriceGranularitySchema = Type.Union([PriceGranularityNameSchema, CustomPriceGranularitySchema]);
export type PriceGranularity = Static<typeof PriceGranularitySchema>;

const ChannelSwitches = Type.Object(
  { amp: Type.Optional(Type.Boolean()), web: Type.Optional(Type.Boolean()), app: Type.Optional(Type.Boolean()), dooh: Type.Optional(Type.Boolean()) },
  { additionalProperties: false },
);

const ActivityRuleSchema = Type.Object(
  {
    condition: Type.Optional(
      Type.Object(
        {
          componentType: Type.Optional(Type.Array(Type.String())),
          componentName: Type.Optional(Type.Array(Type.String())),
          gppSid: Type.Optional(Type.Array(Type.Integer())),
          geo: Type.Optional(Type.Array(Type.String())),
          gpc: Type.Optional(Type.String()),
        },
        { additionalProperties: false },
      ),
    ),
    allow: Type.Boolean(),
  },
  { additionalProperties: false },
);
const ActivitySchema = Type.Object({ default: Type.Optional(Type.Boolean()), rules: Type.Optional(Type.Array(ActivityRuleSchema)) }, { additionalProperties: false });
const ACTIVITIES = ['syncUser', 'fetchBids', 'enrichUfpd', 'reportAnalytics', 'transmitUfpd', 'transmitPreciseGeo', 'transmitEids', 'transmitTid', 'transmitUniqueRequestIds'] as const;

/** Activity controls as Prebid Server names them (`privacy.allowactivities`), for the server and accounts. */
export const AllowActivitiesSchema = Type.Object(
  Object.fromEntries(ACTIVITIES.map((a) => [a, Type.Optional(ActivitySchema)])) as Record<(typeof ACTIVITIES)[number], TOptional<typeof ActivitySchema>>,
  { additionalProperties: false },
);

/** An account's privacy overrides, as Prebid Server's account config names them. */
const AccountPrivacyProperties = {
  gdpr: Type.Optional(
    Type.Object(
      {
        enabled: Type.Optional(Type.Boolean()),
        channel_enabled: Type.Optional(ChannelSwitches),
        enforce_algo: Type.Optional(Type.Enum(['full', 'basic'])),
        vendor_exceptions: Type.Optional(Type.Array(Type.String())),
      },
      { additionalProperties: false },
    ),
  ),
  ccpa: Type.Optional(Type.Object({ enabled: Type.Optional(Type.Boolean()), channel_enabled: Type.Optional(ChannelSwitches) }, { additionalProperties: false })),
  allowactivities: Type.Optional(AllowActivitiesSchema),
  ipv4: Type.Optional(Type.Object({ anon_keep_bits: Type.Optional(Type.Integer({ minimum: 0, maximum: 32 })) }, { additionalProperties: false })),
  ipv6: Type.Optional(Type.Object({ anon_keep_bits: Type.Optional(Type.Integer({ minimum: 0, maximum: 128 })) }, { additionalProperties: false })),
};

const settings = group({
  events: group({
    /** `false` refuses `/event` and `/vtrack` for the account (401). */
    enabled: leaf((o) => Type.Boolean(o), true),
  }),
  auction: group({
    /** The granularity of `hb_pb` when the request sets none. */
    price_granularity: leaf((o) => Type.Union([PriceGranularityNameSchema, CustomPriceGranularitySchema], o), 'medium'),
    /** How long a cached banner bid lives, in seconds. */
    banner_cache_ttl_seconds: leaf((o) => Type.Integer({ minimum: 0, ...o }), 300),
    /** How long a cached video bid (VAST) lives, in seconds. */
    video_cache_ttl_seconds: leaf((o) => Type.Integer({ minimum: 0, ...o }), 1500),
    /** Whether a request's `debug` is honoured for this account. */
    debug_allow: leaf((o) => Type.Boolean(o), true),
    /** Put before every targeting key (`hb_pb` → `<prefix>_pb`); empty keeps `hb`. */
    targeting_prefix: leaf((o) => Type.String(o), ''),
  }),
  /** `/cookie_sync` defaults of the account (Prebid Server's `cookie_sync`); 0 and `null` mean unset, as its defaults are. */
  cookie_sync: group({
    /** Syncs offered when the request sets no `limit`; 0: no limit. */
    default_limit: leaf((o) => Type.Integer({ minimum: 0, ...o }), 0),
    /** The most syncs offered whatever the request asks; 0: no limit. */
    max_limit: leaf((o) => Type.Integer({ minimum: 0, ...o }), 0),
    /** Cooperative sync when the request does not say; `null`: `user_sync.coop_sync.default`. Once set, the account's `priority_groups` replace the server's. */
    default_coop_sync: leaf((o) => Type.Union([Type.Boolean(), Type.Null()], o), null),
    /** Bidder codes in groups, highest priority first, used when `default_coop_sync` is set. */
    priority_groups: leaf((o) => Type.Array(Type.Array(Type.String(), { maxItems: 100 }), { maxItems: 20, ...o }), []),
  }),
  /** Overrides of the server's `privacy` settings; a key left out follows the server's. */
  privacy: leaf((o) => Type.Object(AccountPrivacyProperties, { additionalProperties: false, ...o }), {}),
});

/** Complete account settings, every key with its default: the schema of `accounts.defaults`. */
export const AccountDefaultsSchema = settings.full;

/**
 * What one source holds for one account: any subset of the settings, at any depth, no defaults.
 * The schema of `accounts.by_id` entries, account files, Postgres rows and HTTP answers.
 */
export const AccountSettingsSchema = Type.Object(settings.partial.properties, { additionalProperties: false });

/** Complete settings (the configured defaults, or defaults with an account's own on top). */
export type AccountDefaults = Static<typeof AccountDefaultsSchema>;
/** What a source knows of one account: any subset of the settings. */
export type AccountSettings = Static<typeof AccountSettingsSchema>;
/** An account's effective settings: the configured defaults with the account's own on top. */
export type Account = { readonly id: string } & AccountDefaults;

/** The schema's defaults, complete and frozen: what `accounts.defaults` is when the config sets nothing. */
export const DEFAULT_ACCOUNT_SETTINGS: AccountDefaults = deepFreeze(Value.Default(AccountDefaultsSchema, {}) as AccountDefaults);

// Compiled once, at import: a check is a generated function call, not a schema walk.
const settingsCheck = Compile(AccountSettingsSchema);

/**
 * Every problem of an account's settings, as `path: message` lines (empty when valid). Whatever
 * the source, settings are checked before they are used. Each setting is checked on its own, and
 * with TypeBox's cap on errors per check (8) lifted, so no number of unknown keys hides a problem.
 */
export const accountSettingsProblems = (value: unknown): string[] => {
  if (settingsCheck.Check(value)) return [];
  const problems: string[] = [];
  groupProblems(settings.members ?? {}, value, '', problems);
  // `Check` decides: an empty list must never pass settings it refused.
  return problems.length > 0 ? problems : ['(root): does not match the account settings schema'];
};

/** Narrows `value` to settings when it has no problems. */
export const isAccountSettings = (value: unknown): value is AccountSettings => settingsCheck.Check(value);

const groupProblems = (members: Members, value: unknown, path: string, out: string[]): void => {
  const where = path === '' ? '(root)' : path;
  if (typeof value !== 'object' || value === null || Array.isArray(value)) {
    out.push(`${where}: must be object`);
    return;
  }
  const obj = value as Record<string, unknown>;
  const unknown = Object.keys(obj).filter((k) => !Object.hasOwn(members, k));
  if (unknown.length > 0) out.push(`${where}: unknown key${unknown.length > 1 ? 's' : ''} ${unknown.join(', ')}`);
  for (const [key, member] of Object.entries(members)) {
    const v = obj[key];
    if (!Object.hasOwn(obj, key) || v === undefined) continue;
    const at = path === '' ? key : `${path}.${key}`;
    if (member.members !== undefined) groupProblems(member.members, v, at, out);
    else if (member.check !== undefined) out.push(...leafProblems(member.check, v, at));
  }
};

/**
 * A union (price granularity) reports each branch and then itself: keep a branch's errors only
 * below the union's own level (inside a custom granularity object), and say what the union
 * accepts when the value matched no branch at all.
 */
const leafProblems = (check: Validator, value: unknown, path: string): string[] => {
  const errors = withoutErrorCap(() => check.Errors(value)).filter((e) => e.keyword !== 'boolean');
  const unionPaths = new Set(errors.filter((e) => e.keyword === 'anyOf').map((e) => e.instancePath));
  const kept = errors.filter((e) => !(e.schemaPath.includes('/anyOf/') && unionPaths.has(e.instancePath)) && e.keyword !== 'anyOf');
  const out = kept.map((e) => describe(path, e.instancePath, e.message, e.params));
  for (const u of unionPaths) {
    if (kept.some((e) => e.instancePath.startsWith(`${u}/`))) continue;
    const names = errors.find((e) => e.instancePath === u && e.keyword === 'enum')?.params as { allowedValues?: unknown[] } | undefined;
    const message = names?.allowedValues === undefined ? 'matches none of the allowed forms' : `must be one of ${names.allowedValues.join(', ')}, or an object with ranges`;
    out.push(describe(path, u, message, undefined));
  }
  return [...new Set(out)];
};

const describe = (path: string, instancePath: string, message: string, params: unknown): string => {
  const where = `${path}${instancePath.replaceAll('/', '.')}`;
  const extra = (params as { additionalProperties?: string[] } | undefined)?.additionalProperties;
  return extra === undefined ? `${where}: ${message}` : `${where}: unknown key${extra.length > 1 ? 's' : ''} ${extra.join(', ')}`;
};
