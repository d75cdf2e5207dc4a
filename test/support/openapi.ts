import { Ajv2020 } from 'ajv/dist/2020.js';
import type { ValidateFunction } from 'ajv/dist/2020.js';
import type { OpenApiDocument } from '../../src/http/openapi.js';

/**
 * The value a local `$ref` (`#/components/...`) points to in `doc`; throws when it resolves to
 * nothing, so a dangling reference fails the test that follows it.
 */
export const resolveRef = (doc: unknown, ref: string): unknown => {
  if (!ref.startsWith('#/')) throw new Error(`not a local $ref: ${ref}`);
  let node: unknown = doc;
  for (const part of ref.slice(2).split('/')) {
    const key = part.replaceAll('~1', '/').replaceAll('~0', '~');
    if (typeof node !== 'object' || node === null || !Object.hasOwn(node, key)) throw new Error(`$ref does not resolve: ${ref}`);
    node = (node as Record<string, unknown>)[key];
  }
  return node;
};

/** `value` with every `$ref` replaced by what it points to (the document has no recursive schemas; depth bounded). */
export const inlineRefs = (doc: unknown, value: unknown, depth = 0): unknown => {
  if (depth > 64) throw new Error('$ref nesting deeper than 64: a cycle?');
  if (Array.isArray(value)) return value.map((v) => inlineRefs(doc, v, depth + 1));
  if (typeof value !== 'object' || value === null) return value;
  const ref = (value as Record<string, unknown>).$ref;
  if (typeof ref === 'string') return inlineRefs(doc, resolveRef(doc, ref), depth + 1);
  return Object.fromEntries(Object.entries(value).map(([k, v]) => [k, inlineRefs(doc, v, depth + 1)]));
};

/** Every `$ref` string anywhere in `value`. */
export const allRefs = (value: unknown, out: string[] = []): string[] => {
  if (Array.isArray(value)) for (const v of value) allRefs(v, out);
  else if (typeof value === 'object' && value !== null) {
    for (const [k, v] of Object.entries(value)) {
      if (k === '$ref' && typeof v === 'string') out.push(v);
      else allRefs(v, out);
    }
  }
  return out;
};

interface Parameter {
  readonly name: string;
  readonly in: string;
  readonly required?: boolean;
  readonly schema?: unknown;
}

/** An operation of the document: its path template, method and OpenAPI object. */
export interface DocOperation {
  readonly path: string;
  readonly method: string;
  readonly op: { parameters?: Parameter[]; requestBody?: { content: Record<string, { schema: unknown }> } };
}

export const documentOperations = (doc: OpenApiDocument): DocOperation[] =>
  Object.entries(doc.paths).flatMap(([path, item]) => Object.entries(item).map(([method, op]) => ({ path, method, op: op as DocOperation['op'] })));

/** The operation whose path template matches `path` (`{name}` is one segment). */
export const findOperation = (doc: OpenApiDocument, method: string, path: string): DocOperation | undefined =>
  documentOperations(doc).find((o) => o.method === method.toLowerCase() && new RegExp(`^${o.path.replace(/\{[^}]+\}/g, '[^/]+')}$`).test(path));

/** Draft 2020-12, as OpenAPI 3.1's schemas are; strict, so a keyword the document misspells fails. */
const newAjv = () => new Ajv2020({ allErrors: true, strict: true, strictRequired: false, validateSchema: true });

/** A validator of an operation's query: its query parameters as one object, unknown names refused. */
export const queryValidator = (doc: OpenApiDocument, o: DocOperation): ValidateFunction => {
  const params = (o.op.parameters ?? []).filter((p) => p.in === 'query');
  const schema = {
    type: 'object',
    properties: Object.fromEntries(params.map((p) => [p.name, inlineRefs(doc, p.schema ?? {})])),
    required: params.filter((p) => p.required === true).map((p) => p.name),
    additionalProperties: false,
  };
  return newAjv().compile(schema);
};

/** A validator of an operation's JSON body, or undefined when it takes none. */
export const bodyValidator = (doc: OpenApiDocument, o: DocOperation): ValidateFunction | undefined => {
  const content = o.op.requestBody?.content;
  const media = content?.['application/json'] ?? content?.['application/x-www-form-urlencoded'];
  return media === undefined ? undefined : newAjv().compile(inlineRefs(doc, media.schema) as object);
};

/** A validator of a named component schema. */
export const componentValidator = (doc: OpenApiDocument, name: string): ValidateFunction => newAjv().compile(inlineRefs(doc, resolveRef(doc, `#/components/schemas/${name}`)) as object);
