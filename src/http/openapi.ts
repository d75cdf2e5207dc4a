import type { TObject, TSchema } from 'typebox';
import { AmpQuerySchema, AmpResponseSchema } from '../amp/api-schema.js';
import { BidderInfoSchema, BidderListQuerySchema, BidderListSchema, BidderParamsSchema } from '../bidders/api-schema.js';
import { CacheGetQuerySchema, CachePutRequestSchema, CachePutResponseSchema } from '../cache/api-schema.js';
import type { ErrorCode } from '../core/app-error.js';
import { EventQuerySchema } from '../events/api-schema.js';
import { BidRequestSchema, BidResponseSchema } from '../openrtb/api-schema.js';
import { StorageEntrySchema, StorageReadQuerySchema, StorageWriteSchema } from '../storage/api-schema.js';
import { API_KEY_HEADER, LEGACY_API_KEY_HEADER } from '../storage/api-key.js';
import { CookieSyncRequestSchema, CookieSyncResponseSchema, GetuidsResponseSchema, OptOutParamsSchema, SetuidQuerySchema } from '../usersync/api-schema.js';
import { VtrackGetQuerySchema, VtrackPostQuerySchema, VtrackPutRequestSchema } from '../vtrack/api-schema.js';
import { STATUS_BY_CODE } from './error-status.js';
import { operationSpecs } from './openapi-operations.js';
import type { OperationSpec, Outcome } from './openapi-operations.js';

/** What of the server's settings the document shows. */
export interface OpenApiOptions {
  /** `api.storage-path`: where module storage answers. */
  readonly storagePath: string;
  /** `metrics.enabled` and `server.metrics_on_public_port`: whether the public port serves `GET /metrics`. */
  readonly metrics: boolean;
  readonly version: string;
}

/** An OpenAPI 3.1 document, as plain JSON. */
export type OpenApiDocument = Record<string, unknown> & { readonly paths: Record<string, Record<string, unknown>> };

const ref = (name: string) => ({ $ref: `#/components/schemas/${name}` });

/**
 * The named body and answer schemas, under `components.schemas`: the TypeBox schemas of the
 * domain modules themselves (`src/<module>/api-schema.ts`), so the document and the modules share
 * one description of each shape.
 */
export const OPENAPI_SCHEMAS: Readonly<Record<string, TSchema | Record<string, unknown>>> = {
  CachePutRequest: CachePutRequestSchema,
  CachePutResponse: CachePutResponseSchema,
  StorageWrite: StorageWriteSchema,
  StorageEntry: StorageEntrySchema,
  VtrackPutRequest: VtrackPutRequestSchema,
  BidRequest: BidRequestSchema,
  BidResponse: BidResponseSchema,
  AmpResponse: AmpResponseSchema,
  CookieSyncRequest: CookieSyncRequestSchema,
  CookieSyncResponse: CookieSyncResponseSchema,
  GetuidsResponse: GetuidsResponseSchema,
  OptOutParams: OptOutParamsSchema,
  BidderList: BidderListSchema,
  BidderInfo: BidderInfoSchema,
  BidderInfoOrAll: { anyOf: [ref('BidderInfo'), { type: 'object', additionalProperties: ref('BidderInfo') }] },
  BidderParams: BidderParamsSchema,
};

/** The query schemas, each turned into one parameter per property. */
export const OPENAPI_QUERIES: Readonly<Record<string, TObject>> = {
  CacheGetQuery: CacheGetQuerySchema,
  StorageReadQuery: StorageReadQuerySchema,
  EventQuery: EventQuerySchema,
  VtrackPostQuery: VtrackPostQuerySchema,
  VtrackGetQuery: VtrackGetQuerySchema,
  AmpQuery: AmpQuerySchema,
  SetuidQuery: SetuidQuerySchema,
  OptOutParams: OptOutParamsSchema,
  BidderListQuery: BidderListQuerySchema,
};

/** A schema as plain JSON (TypeBox's are already; this drops anything that is not). */
const plain = (schema: unknown): Record<string, unknown> => JSON.parse(JSON.stringify(schema)) as Record<string, unknown>;

const queryParameters = (query: TObject): unknown[] => {
  const required = new Set<string>(query.required ?? []);
  return Object.entries(query.properties).map(([name, schema]) => {
    const { description, ...rest } = plain(schema);
    return { name, in: 'query', required: required.has(name), ...(typeof description === 'string' ? { description } : {}), schema: rest };
  });
};

const contentSchema = (kind: string): Record<string, unknown> => {
  if (kind === 'any') return {};
  if (kind === 'text') return { type: 'string' };
  if (kind === 'binary') return { type: 'string', contentMediaType: 'application/octet-stream' };
  return ref(kind);
};

const outcome = (o: Outcome): Record<string, unknown> => ({
  description: o.description,
  ...(o.headers === undefined ? {} : { headers: Object.fromEntries(Object.entries(o.headers).map(([h, d]) => [h, { description: d, schema: { type: 'string' } }])) }),
  ...(o.content === undefined ? {} : { content: Object.fromEntries(Object.entries(o.content).map(([type, kind]) => [type, { schema: contentSchema(kind) }])) }),
});

/** Every status a domain error maps to, with the codes behind it: one shared response each. */
const errorResponses = (): Record<string, unknown> => {
  const byStatus = new Map<number, string[]>();
  for (const [code, status] of Object.entries(STATUS_BY_CODE)) byStatus.set(status, [...(byStatus.get(status) ?? []), code]);
  return Object.fromEntries(
    [...byStatus].map(([status, codes]) => [
      `Error${status}`,
      { description: `A plain-text message (${codes.join(', ')}).`, content: { 'text/plain': { schema: { type: 'string' } } } },
    ]),
  );
};

// Any route may fail unexpectedly (500), and once shutdown has begun every request is answered 503.
const ALWAYS: readonly ErrorCode[] = ['INTERNAL', 'UNAVAILABLE'];

const operation = (spec: OperationSpec): Record<string, unknown> => {
  const responses: Record<string, unknown> = {};
  for (const o of spec.ok) responses[String(o.status)] = outcome(o);
  for (const o of spec.otherStatuses ?? []) responses[String(o.status)] = outcome(o);
  for (const code of [...spec.errors, ...ALWAYS]) {
    const status = String(STATUS_BY_CODE[code]);
    responses[status] ??= { $ref: `#/components/responses/Error${status}` };
  }
  const parameters = [
    ...(spec.pathParams ?? []).map((p) => ({ name: p.name, in: 'path', required: true, description: p.description, schema: { type: 'string' } })),
    ...(spec.query === undefined ? [] : queryParameters(spec.query)),
  ];
  const bodyTypes = spec.body?.form === true ? ['application/x-www-form-urlencoded'] : ['application/json', 'text/plain'];
  return {
    summary: spec.summary,
    ...(spec.description === undefined ? {} : { description: spec.description }),
    ...(parameters.length === 0 ? {} : { parameters }),
    ...(spec.body === undefined
      ? {}
      : {
          requestBody: {
            required: spec.body.form !== true,
            description: spec.body.form === true ? 'Form fields (read whatever the Content-Type says).' : 'Read as JSON whatever the Content-Type (Prebid.js posts `text/plain`).',
            content: Object.fromEntries(bodyTypes.map((t) => [t, { schema: ref(spec.body!.schema) }])),
          },
        }),
    ...(spec.apiKey === undefined ? {} : { security: spec.apiKey === 'required' ? [{ storageApiKey: [] }] : [{ storageApiKey: [] }, {}] }),
    responses: Object.fromEntries(Object.entries(responses).sort(([a], [b]) => a.localeCompare(b))),
  };
};

/**
 * The OpenAPI 3.1 document of every route the server answers, built from the domain modules'
 * TypeBox schemas, the route table of `openapi-operations.ts` and the status table of
 * `error-status.ts`. Pure: the same options give the same document (`docs/openapi.json` is its
 * output for the default configuration, and a test keeps it so).
 */
export const buildOpenApiDocument = (opts: OpenApiOptions): OpenApiDocument => {
  const paths: Record<string, Record<string, unknown>> = {};
  for (const spec of operationSpecs(OPENAPI_QUERIES)) {
    if (spec.path === '/metrics' && !opts.metrics) continue;
    const path = spec.path === '{storage}' ? opts.storagePath : spec.path;
    (paths[path] ??= {})[spec.method] = operation(spec);
  }
  return {
    openapi: '3.1.0',
    info: {
      title: 'openbid',
      version: opts.version,
      description: 'Prebid Server and Prebid Cache compatible header bidding. Errors are plain text; see docs/api.md.',
      license: { name: 'Apache-2.0', identifier: 'Apache-2.0' },
    },
    paths,
    components: {
      schemas: Object.fromEntries(Object.entries(OPENAPI_SCHEMAS).map(([name, schema]) => [name, plain(schema)])),
      responses: errorResponses(),
      securitySchemes: {
        storageApiKey: { type: 'apiKey', in: 'header', name: API_KEY_HEADER, description: `\`api.api-key\`; \`${LEGACY_API_KEY_HEADER}\` is accepted too.` },
      },
    },
  };
};
