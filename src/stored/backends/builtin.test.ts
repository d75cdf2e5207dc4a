import assert from 'node:assert/strict';
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, it } from 'node:test';
import { silentLogger } from '../../core/logger.js';
import { noopMetrics } from '../../metrics/noop.js';
import { PROTOTYPE_KEYS } from '../../../test/support/prototype-keys.js';
import { BUILTIN_STORED_BACKENDS } from './builtin.js';
import { nothingFound } from '../stored-request-fetcher.js';
import { createStoredDataSources } from './stored-data.js';
import type { SourceName, StoredDataOptions } from './stored-data.js';

const options = (order: readonly string[], requestsDir = '', postgresAccounts = false): StoredDataOptions => ({
  storedRequests: {
    filesystem: { directory: requestsDir },
    postgres: { connection_string: '', pool_size: 1, timeout_ms: 100, change_notifications: false, change_poll_interval_seconds: 0 },
    http: { endpoint: '', timeout_ms: 100 },
    // Cast: the schema's enum keeps other names out of a real configuration; this checks the registry does too.
    order: order as readonly SourceName[],
    cache: { ttl_seconds: 1, miss_ttl_seconds: 1, max_entries: 10, max_bytes: 1 << 20 },
    max_id_length: 256,
  },
  storedImps: { filesystem: { directory: '' } },
  accounts: { by_id: {}, filesystem: { directory: '' }, postgres: { enabled: postgresAccounts }, http: { endpoint: '', timeout_ms: 100 } },
  logger: silentLogger,
  metrics: noopMetrics,
});

describe('built-in stored data sources', () => {
  it('has one factory per name stored_requests.order accepts', () => {
    assert.deepEqual(Object.keys(BUILTIN_STORED_BACKENDS).sort(), ['filesystem', 'http', 'postgres']);
    for (const factory of Object.values(BUILTIN_STORED_BACKENDS)) assert.equal(typeof factory, 'function');
  });

  it("knows no source by Object's own names", () => {
    for (const name of PROTOTYPE_KEYS) assert.equal((BUILTIN_STORED_BACKENDS as Readonly<Record<string, unknown>>)[name], undefined, name);
  });

  it('refuses an order naming no source, rather than taking it for another', async () => {
    for (const name of ['constructor', 'redis']) {
      await assert.rejects(createStoredDataSources(options([name])), new RegExp(`stored_requests\\.order: no stored data source is named "${name}"`));
    }
  });

  it('serves from the sources the order names, through their registry entries', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'openbid-builtin-'));
    writeFileSync(join(dir, 'r1.json'), '{"id":"r1"}');
    const withFiles = await createStoredDataSources(options(['filesystem'], dir));
    const withoutFiles = await createStoredDataSources(options(['http'], dir));
    try {
      assert.equal((await withFiles.storedRequests.fetchRequests(['r1'], [])).requests.has('r1'), true);
      assert.equal((await withoutFiles.storedRequests.fetchRequests(['r1'], [])).requests.has('r1'), false);
    } finally {
      await withFiles.close();
      await withoutFiles.close();
    }
  });

  it('closes the sources it opened when a later one refuses its configuration', async () => {
    const closed: string[] = [];
    const backends = {
      first: async () => ({ storedRequests: { fetchRequests: async (r: readonly string[], i: readonly string[]) => nothingFound(r, i) }, close: async () => void closed.push('first') }),
      refusing: async () => {
        throw new Error('refusing.key needs another key');
      },
      never: async () => ({ close: async () => void closed.push('never') }),
    };
    await assert.rejects(createStoredDataSources({ ...options(['first', 'refusing', 'never']), backends }), /refusing\.key needs another key/);
    assert.deepEqual(closed, ['first']);
  });
});
