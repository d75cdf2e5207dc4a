import { readFileSync } from 'node:fs';
import type { TSchema } from 'typebox';
import Value from 'typebox/value';
import { parse as parseYaml } from 'yaml';
import { applyEnvOverrides } from './env-overrides.js';
import { ConfigSchema } from './schema.js';
import type { Config } from './schema.js';
import { redisModeProblems } from './redis-modes.js';
import { schemaProblems } from './schema-problems.js';
import { semanticProblems } from './semantic-checks.js';
import { urlProblems } from './url-checks.js';

/** Raised with every problem found, so an operator fixes a config in one go, not one per restart. */
export class ConfigError extends Error {
  readonly problems: readonly string[];

  constructor(problems: readonly string[]) {
    super(`invalid configuration:\n${problems.map((p) => `  - ${p}`).join('\n')}`);
    this.name = 'ConfigError';
    this.problems = problems;
  }
}

export interface LoadConfigOptions {
  /** Path of a YAML or JSON file; falls back to `env.OPENBID_CONFIG`; none means all defaults. */
  file?: string | undefined;
  env?: Readonly<Record<string, string | undefined>>;
  /** Already-parsed config, used instead of a file (tests). */
  raw?: unknown;
}

/** Reads, overrides, converts, defaults and validates the configuration; returns it frozen. */
export const loadConfig = (opts: LoadConfigOptions = {}): Config => {
  const env = opts.env ?? {};
  const file = opts.file ?? env.OPENBID_CONFIG;
  const problems: string[] = [];

  let raw: unknown = opts.raw === undefined ? {} : structuredClone(opts.raw);
  if (opts.raw === undefined && file !== undefined && file !== '') {
    raw = readConfigFile(file, problems);
  }
  if (raw === null || raw === undefined) raw = {};
  if (typeof raw !== 'object' || Array.isArray(raw)) {
    throw new ConfigError([...problems, 'the configuration must be a mapping of sections']);
  }
  const rawObject = raw as Record<string, unknown>;
  const fromEnv = new Map<string, string>();
  problems.push(...applyEnvOverrides(rawObject, ConfigSchema, env, fromEnv));
  // Before defaults fill in `url`, `host` and `port`: only the raw text says what was named.
  problems.push(...redisModeProblems(rawObject));

  const converted = Value.Convert(ConfigSchema, rawObject);
  const withDefaults = defaultMapEntries(ConfigSchema as unknown as SchemaNode, Value.Default(ConfigSchema, converted));
  // The whole document decides: every schema problem (no cap on their number), and every URL the
  // schema let through that is no http(s) URL, listed together.
  const schemaFound = schemaProblems(ConfigSchema, withDefaults);
  const urlFound = urlProblems(withDefaults, new Set(schemaFound.map((p) => p.path)));
  problems.push(...[...schemaFound, ...urlFound].map((p) => nameVariable(p.text, fromEnv)));
  if (problems.length > 0) throw new ConfigError(problems);

  const config = withDefaults as Config;
  const semantic = semanticProblems(config);
  if (semantic.length > 0) throw new ConfigError(semantic.map((p) => nameVariable(p, fromEnv)));
  return deepFreeze(config);
};

const readConfigFile = (file: string, problems: string[]): unknown => {
  let text: string;
  try {
    text = readFileSync(file, 'utf8');
  } catch (err) {
    problems.push(`cannot read config file ${file}: ${(err as NodeJS.ErrnoException).code ?? (err as Error).message}`);
    return {};
  }
  try {
    // YAML 1.2 is a superset of JSON, so one parser serves both formats.
    return parseYaml(text) as unknown;
  } catch (err) {
    problems.push(`cannot parse config file ${file}: ${(err as Error).message}`);
    return {};
  }
};

interface SchemaNode {
  properties?: Record<string, SchemaNode>;
  patternProperties?: Record<string, SchemaNode>;
}

/**
 * `Value.Default` fills defaults of declared properties but not inside map entries (records such
 * as `storage.memory.<application>`); this walks the schema and defaults each entry too.
 */
const defaultMapEntries = (schema: SchemaNode, value: unknown): unknown => {
  if (typeof value !== 'object' || value === null || Array.isArray(value)) return value;
  const obj = value as Record<string, unknown>;
  for (const [key, child] of Object.entries(schema.properties ?? {})) {
    if (key in obj) obj[key] = defaultMapEntries(child, obj[key]);
  }
  const entrySchema = schema.patternProperties === undefined ? undefined : Object.values(schema.patternProperties)[0];
  if (entrySchema !== undefined) {
    for (const key of Object.keys(obj)) {
      obj[key] = defaultMapEntries(entrySchema, Value.Default(entrySchema as unknown as TSchema, obj[key] ?? {}));
    }
  }
  return obj;
};

/**
 * A problem (`path: message`) whose value came from an environment variable, with that variable
 * named: the operator looks for `OPENBID_SERVER__PORT`, not for a `server.port` in a file that
 * may not even set it. The variable that set the path or the nearest object holding it counts.
 */
const nameVariable = (problem: string, fromEnv: ReadonlyMap<string, string>): string => {
  if (fromEnv.size === 0) return problem;
  const path = /^([^\s:]+):/.exec(problem)?.[1];
  if (path === undefined) return problem;
  const segments = path.split('.');
  for (let n = segments.length; n > 0; n--) {
    const name = fromEnv.get(segments.slice(0, n).join('.'));
    if (name !== undefined) return `${problem} (set by ${name})`;
  }
  return problem;
};

const deepFreeze = <T>(value: T): T => {
  if (typeof value === 'object' && value !== null && !Object.isFrozen(value)) {
    Object.freeze(value);
    for (const v of Object.values(value)) deepFreeze(v);
  }
  return value;
};
