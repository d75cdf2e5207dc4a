import type { TSchema } from 'typebox';
import Value from 'typebox/value';
import { withoutErrorCap } from '../core/uncapped-errors.js';
import { didYouMean, suggestKeys } from './key-suggestions.js';
import type { KeySchemaNode } from './key-suggestions.js';
import { isSecretKey, valueText } from './redact.js';

/** One way a document fails its schema: where (dotted, '' for the root) and what is wrong there. */
export interface SchemaProblem {
  readonly path: string;
  /** `path: what is wrong (value …)`, and for an unknown key the nearest valid ones. */
  readonly text: string;
}

interface SchemaError {
  readonly keyword: string;
  readonly schemaPath: string;
  readonly instancePath: string;
  readonly params: unknown;
  readonly message: string;
}

/**
 * Every way `doc` fails `schema`, in the order TypeBox finds them: each unknown key on its own
 * with its value and the nearest valid keys, each wrong value with the value, each missing key.
 * Validity is `Value.Check` on the whole document; the list only explains it, so it is never
 * empty for an invalid document. TypeBox stops collecting errors after 8 (and every unknown key
 * takes one), so its cap is lifted for this call.
 */
export const schemaProblems = (schema: TSchema, doc: unknown): SchemaProblem[] => {
  if (Value.Check(schema, doc)) return [];
  const problems = describeErrors(schema, doc, withoutErrorCap(() => Value.Errors(schema, doc)));
  return problems.length > 0 ? problems : [{ path: '', text: '(root): does not match the configuration schema' }];
};

const describeErrors = (schema: KeySchemaNode, doc: unknown, errors: readonly SchemaError[]): SchemaProblem[] => {
  // A union (`anyOf`) reports each branch's errors, then its own: said once, as what it accepts.
  const unions = new Set(errors.filter((e) => e.keyword === 'anyOf').map((e) => e.instancePath));
  const out: SchemaProblem[] = [];
  for (const e of errors) {
    // `additionalProperties: false` also fails each unknown key's `false` schema: named by its parent's error.
    if (e.keyword === 'boolean' && e.schemaPath.endsWith('/additionalProperties')) continue;
    if (unions.has(e.instancePath) && e.keyword !== 'anyOf' && e.schemaPath.includes('/anyOf/')) continue;
    if (e.keyword === 'anyOf') {
      // Errors inside a branch's object (a custom price granularity's ranges) say more than the union does.
      if (!out.some((p) => p.path.startsWith(`${dotted(e.instancePath)}.`))) out.push(unionProblem(doc, e, errors));
      continue;
    }
    out.push(...describeError(schema, doc, e));
  }
  const seen = new Set<string>();
  return out.filter((p) => !seen.has(p.text) && seen.add(p.text));
};

const describeError = (schema: KeySchemaNode, doc: unknown, e: SchemaError): SchemaProblem[] => {
  const segments = pointerSegments(e.instancePath);
  const params = (e.params ?? {}) as { additionalProperties?: string[]; requiredProperties?: string[]; allowedValues?: unknown[] };
  if (params.additionalProperties !== undefined) {
    const parent = schemaAt(schema, e.schemaPath);
    return params.additionalProperties.map((key) => unknownKey(schema, parent, segments, key, doc));
  }
  if (params.requiredProperties !== undefined) {
    return params.requiredProperties.map((key) => problem([...segments, key], 'required'));
  }
  const message = params.allowedValues === undefined ? e.message : `must be one of ${params.allowedValues.join(', ')}`;
  return [problem(segments, withValue(message, segments, doc))];
};

const unknownKey = (root: KeySchemaNode, parent: KeySchemaNode, segments: readonly string[], key: string, doc: unknown): SchemaProblem => {
  const path = [...segments, key];
  const suggestions = suggestKeys(root, parent, segments.join('.'), key);
  // A misspelt secret key (`api_kee`) holds a secret all the same.
  const secret = suggestions.map((s) => s.slice(s.lastIndexOf('.') + 1)).find(isSecretKey);
  const hint = didYouMean(suggestions);
  return problem(path, `${withValue('unknown key', path, doc, secret)}${hint === '' ? '' : `; ${hint}`}`);
};

/** What a union accepts, from its branches' errors: `must be one of 0, 1`, `… or an object`. */
const unionProblem = (doc: unknown, union: SchemaError, errors: readonly SchemaError[]): SchemaProblem => {
  const branches = errors.filter((e) => e.instancePath === union.instancePath && e.schemaPath.startsWith(`${union.schemaPath}/anyOf/`));
  const values: unknown[] = [];
  const types: string[] = [];
  for (const e of branches) {
    const p = (e.params ?? {}) as { allowedValues?: unknown[]; allowedValue?: unknown; type?: string };
    if (p.allowedValues !== undefined) values.push(...p.allowedValues);
    if ('allowedValue' in p) values.push(p.allowedValue);
    if (e.keyword === 'type' && typeof p.type === 'string') types.push(`an ${p.type}`.replace(/^an ([^aeiou])/, 'a $1'));
  }
  const message =
    values.length > 0
      ? `must be one of ${values.map(String).join(', ')}${types.length > 0 ? `, or ${types.join(' or ')}` : ''}`
      : types.length > 0
        ? `must be ${types.join(' or ')}`
        : 'matches none of the allowed forms';
  const segments = pointerSegments(union.instancePath);
  return problem(segments, withValue(message, segments, doc));
};

const problem = (segments: readonly string[], message: string): SchemaProblem => {
  const path = segments.join('.');
  return { path, text: `${path === '' ? '(root)' : path}: ${message}` };
};

/** `message (value …)` when the document has a value there; redacted as `redactAs`'s would be, if given. */
const withValue = (message: string, segments: readonly string[], doc: unknown, redactAs?: string): string => {
  const value = valueAt(doc, segments);
  return value === undefined ? message : `${message} (value ${valueText(redactAs ?? segments[segments.length - 1] ?? '', value)})`;
};

/** `/a/b~1c` → `['a', 'b/c']` (JSON pointer). */
const pointerSegments = (pointer: string): string[] =>
  pointer === '' ? [] : pointer.slice(1).split('/').map((s) => s.replaceAll('~1', '/').replaceAll('~0', '~'));

const dotted = (pointer: string): string => pointerSegments(pointer).join('.');

const valueAt = (doc: unknown, segments: readonly string[]): unknown => {
  let at = doc;
  for (const s of segments) {
    if (typeof at !== 'object' || at === null || !Object.hasOwn(at, s)) return undefined;
    at = (at as Record<string, unknown>)[s];
  }
  return at;
};

/** The schema node an error's `schemaPath` (`#/properties/adapters/patternProperties/^.*$`) names. */
const schemaAt = (schema: KeySchemaNode, schemaPath: string): KeySchemaNode => {
  const node = valueAt(schema, pointerSegments(schemaPath.replace(/^#/, '')));
  return typeof node === 'object' && node !== null ? node : {};
};
