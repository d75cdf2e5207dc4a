import type { TObject } from 'typebox';
import type { ErrorCode } from '../core/app-error.js';

/**
 * What the OpenAPI document says of each route beyond its schemas: summary, parameters, bodies,
 * statuses. Schemas are named (keys of `OPENAPI_SCHEMAS` in `openapi.ts`), never written here;
 * a route's errors are domain error codes, turned into statuses by `error-status.ts`, so the
 * document cannot disagree with the table the server answers by.
 */
export interface OperationSpec {
  readonly method: 'get' | 'post';
  /** OpenAPI form (`/info/bidders/{name}`); `{storage}` stands for `api.storage-path`. */
  readonly path: string;
  readonly summary: string;
  readonly description?: string;
  /** The query, one parameter per property. */
  readonly query?: TObject;
  readonly pathParams?: readonly { readonly name: string; readonly description: string }[];
  /** The request body: a named schema, read as JSON whatever the Content-Type unless `form`. */
  readonly body?: { readonly schema: string; readonly form?: boolean };
  /** Needs the storage API key (`required`) or takes it when the server asks for one (`optional`). */
  readonly apiKey?: 'required' | 'optional';
  readonly ok: readonly Outcome[];
  /** Domain errors this route raises (status from `STATUS_BY_CODE`). */
  readonly errors: readonly ErrorCode[];
  /** Statuses a route answers itself, outside the domain errors (e.g. `/setuid`'s 451). */
  readonly otherStatuses?: readonly Outcome[];
}

/** A status and its bodies by content type: a named schema, `text` (any text) or `binary`. */
export interface Outcome {
  readonly status: number;
  readonly description: string;
  readonly content?: Readonly<Record<string, string>>;
  readonly headers?: Readonly<Record<string, string>>;
}

const JSON_BODY = 'application/json';
/** What `GET /cache` answers, and `GET /vtrack` the same way. */
const STORED_VALUE: Outcome = { status: 200, description: 'The exact bytes stored.', content: { 'application/xml': 'text', [JSON_BODY]: 'any' } };

/** The routes and what each answers, in the order the document lists them. */
export const operationSpecs = (queries: Readonly<Record<string, TObject>>): OperationSpec[] => [
  {
    method: 'get',
    path: '/status',
    summary: 'Health check for load balancers',
    ok: [{ status: 204, description: 'Serving.' }],
    errors: ['UNAVAILABLE'],
  },
  {
    method: 'get',
    path: '/metrics',
    summary: 'Prometheus metrics (when `server.metrics_on_public_port`; always on the admin listener)',
    ok: [{ status: 200, description: 'Prometheus text exposition.', content: { 'text/plain': 'text' } }],
    errors: [],
  },
  {
    method: 'post',
    path: '/cache',
    summary: 'Store values (Prebid Cache)',
    description: 'All puts are validated first; one invalid put stores nothing.',
    body: { schema: 'CachePutRequest' },
    ok: [{ status: 200, description: 'One uuid per put, in put order.', content: { [JSON_BODY]: 'CachePutResponse' } }],
    errors: ['BAD_REQUEST', 'PAYLOAD_TOO_LARGE', 'BACKEND_FAILURE', 'BACKEND_TIMEOUT'],
  },
  {
    method: 'get',
    path: '/cache',
    summary: 'Read a stored value',
    query: queries.CacheGetQuery,
    ok: [STORED_VALUE],
    errors: ['BAD_REQUEST', 'NOT_FOUND', 'BACKEND_FAILURE', 'BACKEND_TIMEOUT'],
  },
  {
    method: 'post',
    path: '{storage}',
    summary: 'Write a module storage entry',
    body: { schema: 'StorageWrite' },
    apiKey: 'required',
    ok: [{ status: 204, description: 'Stored (an existing entry is overwritten).' }],
    errors: ['BAD_REQUEST', 'UNAUTHORIZED', 'NOT_FOUND', 'PAYLOAD_TOO_LARGE', 'BACKEND_FAILURE', 'BACKEND_TIMEOUT'],
  },
  {
    method: 'get',
    path: '{storage}',
    summary: 'Read a module storage entry',
    description: 'Takes `application` (or `a`) and `key` (or `k`); the API key unless `api.storage-read-public`.',
    query: queries.StorageReadQuery,
    apiKey: 'optional',
    ok: [{ status: 200, description: 'The entry.', content: { [JSON_BODY]: 'StorageEntry' } }],
    errors: ['BAD_REQUEST', 'UNAUTHORIZED', 'NOT_FOUND', 'BACKEND_FAILURE', 'BACKEND_TIMEOUT'],
  },
  {
    method: 'get',
    path: '/event',
    summary: 'Win or impression notification',
    query: queries.EventQuery,
    ok: [{ status: 200, description: 'Empty, or (`f=i`) a 1×1 transparent PNG.', content: { 'image/png': 'binary' } }],
    errors: ['BAD_REQUEST', 'UNAUTHORIZED', 'BACKEND_FAILURE', 'BACKEND_TIMEOUT'],
  },
  {
    method: 'post',
    path: '/vtrack',
    summary: 'Cache VAST with an impression tracker inserted',
    query: queries.VtrackPostQuery,
    body: { schema: 'VtrackPutRequest' },
    ok: [{ status: 200, description: 'One uuid per put, in put order.', content: { [JSON_BODY]: 'CachePutResponse' } }],
    errors: ['BAD_REQUEST', 'UNAUTHORIZED', 'PAYLOAD_TOO_LARGE', 'BACKEND_FAILURE', 'BACKEND_TIMEOUT'],
  },
  {
    method: 'get',
    path: '/vtrack',
    summary: 'Read cached VAST (as `GET /cache`)',
    query: queries.VtrackGetQuery,
    ok: [STORED_VALUE],
    errors: ['BAD_REQUEST', 'NOT_FOUND', 'BACKEND_FAILURE', 'BACKEND_TIMEOUT'],
  },
  {
    method: 'post',
    path: '/openrtb2/auction',
    summary: 'Run an OpenRTB 2.6 auction',
    description: 'Stored requests and imps are merged in before the request is validated; every problem is named in one 400.',
    body: { schema: 'BidRequest' },
    ok: [{ status: 200, description: 'The bid response.', content: { [JSON_BODY]: 'BidResponse' } }],
    errors: ['BAD_REQUEST', 'UNAUTHORIZED', 'PAYLOAD_TOO_LARGE', 'BACKEND_FAILURE', 'BACKEND_TIMEOUT'],
  },
  {
    method: 'get',
    path: '/openrtb2/amp',
    summary: 'Run an AMP auction (Real Time Config)',
    query: queries.AmpQuery,
    ok: [
      {
        status: 200,
        description: 'Targeting for the page.',
        content: { [JSON_BODY]: 'AmpResponse' },
        headers: { 'AMP-Access-Control-Allow-Source-Origin': 'The page origin (`__amp_source_origin`, else `Origin`).' },
      },
    ],
    errors: ['BAD_REQUEST', 'UNAUTHORIZED', 'BACKEND_FAILURE', 'BACKEND_TIMEOUT'],
  },
  {
    method: 'post',
    path: '/cookie_sync',
    summary: 'User syncs the page should run',
    body: { schema: 'CookieSyncRequest' },
    ok: [{ status: 200, description: 'The syncs, in Prebid Server’s shape.', content: { [JSON_BODY]: 'CookieSyncResponse' } }],
    errors: ['BAD_REQUEST', 'UNAUTHORIZED', 'PAYLOAD_TOO_LARGE'],
  },
  {
    method: 'get',
    path: '/setuid',
    summary: 'Keep a bidder’s user id in the `uids` cookie',
    query: queries.SetuidQuery,
    ok: [{ status: 200, description: 'Cookie written: empty HTML, or (`f=i`) a 1×1 PNG.', content: { 'text/html': 'text', 'image/png': 'binary' }, headers: { 'Set-Cookie': 'The `uids` cookie.' } }],
    errors: ['BAD_REQUEST', 'UNAUTHORIZED'],
    otherStatuses: [{ status: 451, description: 'Privacy rules forbid the sync.', content: { 'text/plain': 'text' } }],
  },
  {
    method: 'get',
    path: '/getuids',
    summary: 'The ids in the `uids` cookie',
    ok: [{ status: 200, description: 'Ids by cookie family.', content: { [JSON_BODY]: 'GetuidsResponse' } }],
    errors: [],
  },
  ...(['get', 'post'] as const).map(
    (method): OperationSpec => ({
      method,
      path: '/optout',
      summary: method === 'get' ? 'Opt out of (or back in to) user syncs' : 'Opt out of (or back in to) user syncs, from a form',
      ...(method === 'get' ? { query: queries.OptOutParams } : { body: { schema: 'OptOutParams', form: true } }),
      ok: [
        { status: 200, description: 'Cookie written.', content: { 'text/plain': 'text' }, headers: { 'Set-Cookie': 'The opt-out cookie.' } },
        { status: 301, description: 'Cookie written; on to the host’s page.', headers: { Location: 'The host’s opt-out or opt-in page.' } },
      ],
      errors: ['BAD_REQUEST', 'UNAUTHORIZED'],
      otherStatuses: [{ status: 403, description: 'Opting back in must come from the server’s own page or pass a reCAPTCHA.', content: { 'text/plain': 'text' } }],
    }),
  ),
  {
    method: 'get',
    path: '/info/bidders',
    summary: 'Bidder codes',
    query: queries.BidderListQuery,
    ok: [{ status: 200, description: 'Codes, sorted.', content: { [JSON_BODY]: 'BidderList' } }],
    errors: ['BAD_REQUEST'],
  },
  {
    method: 'get',
    path: '/info/bidders/{name}',
    summary: 'One bidder’s details, or every bidder’s (`all`)',
    pathParams: [{ name: 'name', description: 'A bidder code (any letter case), or `all`.' }],
    ok: [{ status: 200, description: 'The details (`all`: an object of them by code).', content: { [JSON_BODY]: 'BidderInfoOrAll' } }],
    errors: [],
    otherStatuses: [{ status: 404, description: 'Unknown bidder (empty body).' }],
  },
  {
    method: 'get',
    path: '/bidders/params',
    summary: 'Every bidder’s params JSON Schema',
    ok: [{ status: 200, description: 'Schemas by bidder code.', content: { [JSON_BODY]: 'BidderParams' } }],
    errors: [],
  },
  {
    method: 'get',
    path: '/openapi.json',
    summary: 'This document',
    ok: [{ status: 200, description: 'OpenAPI 3.1.', content: { [JSON_BODY]: 'any' } }],
    errors: [],
  },
];
