import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { Ajv2020 } from 'ajv/dist/2020.js';
import { CachePutRequestSchema } from '../../src/cache/api-schema.js';
import { parsePutRequest } from '../../src/cache/put-request.js';
import { EventQuerySchema } from '../../src/events/api-schema.js';
import { parseEventQuery } from '../../src/events/event-request.js';
import { StorageWriteSchema } from '../../src/storage/api-schema.js';
import { parseStorageEntry } from '../../src/storage/storage-entry.js';
import { CookieSyncRequestSchema } from '../../src/usersync/api-schema.js';
import { parseCookieSyncRequest } from '../../src/usersync/cookie-sync-request.js';
import { VtrackPutRequestSchema } from '../../src/vtrack/api-schema.js';
import { parseTrackRequest } from '../../src/vtrack/vtrack-request.js';

/**
 * The published schemas (`src/<module>/api-schema.ts`) and the validators the routes run agree:
 * each request below is accepted by both or refused by both. Limits are set wide, since they
 * come from configuration and the document names them only in words.
 */
const accepts = (parse: () => unknown): boolean => {
  try {
    parse();
    return true;
  } catch {
    return false;
  }
};

const agree = (name: string, schema: object, parse: (value: unknown) => unknown, cases: readonly unknown[]): void => {
  const check = new Ajv2020({ strict: true, strictRequired: false }).compile(schema);
  describe(name, () => {
    for (const value of cases) {
      it(JSON.stringify(value), () => {
        assert.equal(check(value), accepts(() => parse(value)), 'schema and validator disagree');
      });
    }
  });
};

const CACHE_LIMITS = { maxSizeBytes: 1e6, maxNumValues: 100, maxTtlSeconds: 3600, allowSettingKeys: true, maxKeyLength: 100 };
agree('POST /cache body', CachePutRequestSchema, (v) => parsePutRequest(JSON.stringify(v), CACHE_LIMITS), [
  { puts: [{ type: 'xml', value: '<VAST/>' }] },
  { puts: [{ type: 'json', value: { a: 1 }, ttlseconds: 60, key: 'k' }] },
  { puts: [] },
  { puts: [{ type: 'xml', value: 5 }] },
  { puts: [{ type: 'yaml', value: 'x' }] },
  { puts: [{ type: 'json' }] },
  { puts: [{ type: 'json', value: 1, ttlseconds: -1 }] },
  { puts: [{ type: 'json', value: 1, ttlseconds: 1.5 }] },
  { puts: [{ type: 'json', value: 1, key: 7 }] },
  { puts: 'x' },
  {},
  [1],
]);

const STORAGE_LIMITS = { defaultTtlSeconds: 300, maxTtlSeconds: 86400, maxValueBytes: 1e6, maxKeyLength: 100 };
const entry = { key: 'k', value: 'v', type: 'text', application: 'app' };
agree('storage write body', StorageWriteSchema, (v) => parseStorageEntry(JSON.stringify(v), STORAGE_LIMITS), [
  entry,
  { ...entry, type: 'JSON', ttlseconds: 60, value: '' },
  { ...entry, type: 'Xml', extra: true },
  { ...entry, type: 'yaml' },
  { ...entry, key: '' },
  { ...entry, application: '' },
  { ...entry, value: 1 },
  { ...entry, ttlseconds: 0 },
  { key: 'k', value: 'v', type: 'text' },
  [],
]);

const event = { t: 'win', b: 'bid', a: 'acct', bidder: 'x' };
agree('GET /event query', EventQuerySchema, (v) => parseEventQuery(v as Record<string, unknown>), [
  event,
  { ...event, t: 'imp', f: 'i', ts: '1700000000000', x: '0', int: 'pbjs', aid: 'a-1' },
  { ...event, t: 'click' },
  { ...event, b: '' },
  { t: 'win', b: 'bid', a: 'acct' },
  { ...event, f: 'x' },
  { ...event, ts: '12a' },
  { ...event, x: '2' },
  { ...event, int: 'has space' },
]);

const put = { bidid: 'b', bidder: 'x', aid: 'a', type: 'xml', value: '<VAST/>', timestamp: 1, ttlseconds: '300' };
agree('POST /vtrack body', VtrackPutRequestSchema, (v) => parseTrackRequest('acct', JSON.stringify(v)), [
  { puts: [put] },
  { puts: [] },
  { puts: [{ ...put, type: 'json' }] },
  { puts: [{ ...put, bidid: '' }] },
  { puts: [{ ...put, timestamp: -1 }] },
  { puts: [{ ...put, ttlseconds: '3s' }] },
  { puts: [{ ...put, value: 1 }] },
  { puts: {} },
]);

agree('POST /cookie_sync body', CookieSyncRequestSchema, (v) => parseCookieSyncRequest(JSON.stringify(v)), [
  {},
  { bidders: ['appnexus'], gdpr: 1, gdpr_consent: 'x', limit: 2, coopSync: true, debug: false, account: 'a' },
  { bidders: null, filterSettings: { iframe: { filter: 'include', bidders: '*' }, image: { filter: 'exclude', bidders: ['a'] } } },
  { bidders: 'appnexus' },
  { gdpr: '1' },
  { limit: 1.5 },
  { coopSync: 'yes' },
  { filterSettings: { iframe: { filter: 'only', bidders: '*' } } },
  { filterSettings: { image: { filter: 'include', bidders: 'a' } } },
  [],
]);
