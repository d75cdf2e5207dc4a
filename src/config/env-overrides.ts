import type { TSchema } from 'typebox';
import { didYouMean, nearestKeys } from './key-suggestions.js';

/**
 * Applies `OPENBID_<SECTION>__<KEY>[__<KEY>...]=value` environment variables onto a raw config
 * object. Path segments match schema keys case-insensitively with `-` and `_` equivalent
 * (`OPENBID_API__API_KEY` sets `api.api-key`). A segment that names a map key (a storage
 * application, an account id, a bidder code) is that key as written, capitals included, since
 * those names are case-sensitive (`OPENBID_ACCOUNTS__BY_ID__PubA__…` configures account `PubA`).
 * Only when the file has no key spelled exactly so, and one that differs in case or `-`/`_`
 * alone, does the segment name the file's key (so `OPENBID_ADAPTERS__APPNEXUS__ENABLED` still
 * reaches the file's `appnexus`); two such keys are a problem, not a guess.
 *
 * Values stay strings (schema conversion turns `"8000"` into 8000 later) except where the schema
 * wants an array or object: those take JSON, and arrays also a comma-separated list.
 * Variables without `__` (such as `OPENBID_CONFIG`) are not overrides and are skipped.
 *
 * Returns the problems found (unknown keys, bad JSON); the object is modified in place. When
 * `sources` is given, it gets the dotted config path each variable set, mapped to the variable's
 * name, so a value found invalid later can be reported under the name the operator wrote.
 */
export const applyEnvOverrides = (
  raw: Record<string, unknown>,
  schema: TSchema,
  env: Readonly<Record<string, string | undefined>>,
  sources?: Map<string, string>,
): string[] => {
  const problems: string[] = [];
  const fromEnv: CreatedKeys = new WeakMap();
  const names = Object.keys(env)
    .filter((n) => n.toUpperCase().startsWith('OPENBID_') && n.includes('__'))
    .sort();
  for (const name of names) {
    const value = env[name];
    if (value === undefined) continue;
    const segments = name.slice('OPENBID_'.length).split('__');
    const applied = applyOne(raw, schema, segments, value, fromEnv);
    if (typeof applied === 'string') problems.push(`${name}: ${applied}`);
    else sources?.set(applied.path, name);
  }
  return problems;
};

const normalise = (key: string): string => key.toLowerCase().replaceAll('-', '_');

/** The map keys each object got from a variable rather than from the file. */
type CreatedKeys = WeakMap<Record<string, unknown>, Set<string>>;

interface SchemaNode {
  type?: string | string[];
  properties?: Record<string, SchemaNode>;
  additionalProperties?: SchemaNode | boolean;
  patternProperties?: Record<string, SchemaNode>;
}

/** Sets one variable's value; returns the dotted path it set, or the problem that stopped it. */
const applyOne = (raw: Record<string, unknown>, schema: TSchema, segments: string[], value: string, fromEnv: CreatedKeys): { path: string } | string => {
  let node = schema as SchemaNode;
  let target = raw;
  const path: string[] = [];
  for (const [i, segment] of segments.entries()) {
    if (segment === '') return 'empty key segment';
    const resolved = resolveKey(node, target, segment, fromEnv.get(target));
    if (typeof resolved === 'string') return `${[...path, segment].join('.')}: ${resolved}`;
    const { key, child } = resolved ?? {};
    if (key === undefined || child === undefined) return `no configuration key ${[...path, segment.toLowerCase()].join('.')}${nearestVariables(node, segments, i)}`;
    path.push(key);
    if (!Object.hasOwn(target, key)) fromEnv.set(target, (fromEnv.get(target) ?? new Set()).add(key));
    if (i === segments.length - 1) {
      const coerced = coerce(child, value);
      if (coerced instanceof CoercionProblem) return coerced.message;
      target[key] = coerced;
      return { path: path.join('.') };
    }
    const existing = target[key];
    if (typeof existing !== 'object' || existing === null || Array.isArray(existing)) target[key] = {};
    target = target[key] as Record<string, unknown>;
    node = child;
  }
  return 'no key';
};

/** The schema key or map key a segment names, undefined if none, or why it names none. */
const resolveKey = (
  node: SchemaNode,
  target: Record<string, unknown>,
  segment: string,
  fromEnv: ReadonlySet<string> | undefined,
): { key: string; child: SchemaNode } | string | undefined => {
  const wanted = normalise(segment);
  if (node.properties !== undefined) {
    for (const [key, child] of Object.entries(node.properties)) {
      if (normalise(key) === wanted) return { key, child };
    }
  }
  const mapValue = typeof node.additionalProperties === 'object' ? node.additionalProperties : firstValue(node.patternProperties);
  if (mapValue === undefined) return undefined;
  if (Object.hasOwn(target, segment)) return { key: segment, child: mapValue };
  const alike = Object.keys(target).filter((k) => normalise(k) === wanted && fromEnv?.has(k) !== true);
  if (alike.length > 1) return `matches ${alike.map((k) => `'${k}'`).join(' and ')} of the file but none exactly; spell the key as the file does`;
  return { key: alike[0] ?? segment, child: mapValue };
};

/** `; did you mean OPENBID_SERVER__PORT?` for a variable whose segment `i` names no key, or ''. */
const nearestVariables = (node: SchemaNode, segments: readonly string[], i: number): string => {
  const near = nearestKeys(segments[i] ?? '', Object.keys(node.properties ?? {}));
  const names = near.map((k) => `OPENBID_${[...segments.slice(0, i), k.toUpperCase().replaceAll('-', '_')].join('__')}`);
  const hint = didYouMean(names);
  return hint === '' ? '' : `; ${hint}`;
};

const firstValue = (o: Record<string, SchemaNode> | undefined): SchemaNode | undefined =>
  o === undefined ? undefined : Object.values(o)[0];

const coerce = (node: SchemaNode, value: string): unknown => {
  const wants = (t: string): boolean => node.type === t || (Array.isArray(node.type) && node.type.includes(t));
  const trimmed = value.trim();
  if (wants('array')) {
    if (trimmed.startsWith('[')) return parseJson(trimmed);
    return trimmed === '' ? [] : trimmed.split(',').map((s) => s.trim());
  }
  if (wants('object') || node.properties !== undefined) return parseJson(trimmed === '' ? '{}' : trimmed);
  return value;
};

class CoercionProblem {
  constructor(readonly message: string) {}
}

const parseJson = (text: string): unknown => {
  try {
    return JSON.parse(text) as unknown;
  } catch (err) {
    return new CoercionProblem(`not valid JSON (${(err as Error).message})`);
  }
};
