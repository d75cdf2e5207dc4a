import assert from 'node:assert/strict';
import { createServer } from 'node:http';
import type { Server } from 'node:http';
import { after, before, describe, it } from 'node:test';
import { silentLogger } from '../../core/logger.js';
import { VENDOR_LIST_FILE, vendorListJson, VENDOR_LIST_V4_FILE } from '../../../test/support/consent-strings.js';
import { createVendorLists } from './vendor-lists.js';
import type { VendorListsOptions } from './vendor-lists.js';

/** A vendor list server on 127.0.0.1: the latest at /latest.json, versions at /v/<n>.json; `failing` answers 500. */
let server: Server;
let base = '';
let failing = false;
const hits: string[] = [];
before(async () => {
  const latest = JSON.stringify(vendorListJson());
  const v4 = JSON.stringify(vendorListJson(VENDOR_LIST_V4_FILE));
  server = createServer((req, res) => {
    hits.push(req.url ?? '');
    const body = failing ? undefined : req.url === '/latest.json' ? latest : req.url === '/v/4.json' ? v4 : undefined;
    res.writeHead(body === undefined ? (failing ? 500 : 404) : 200, { 'content-type': 'application/json' }).end(body ?? '');
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const addr = server.address();
  base = `http://127.0.0.1:${typeof addr === 'object' && addr !== null ? addr.port : 0}`;
});
after(() => new Promise<void>((resolve) => server.close(() => resolve())));

let now = 0;
const options = (o: Partial<VendorListsOptions>): VendorListsOptions => ({
  url: '',
  archiveUrl: '',
  file: '',
  refreshIntervalMs: 60_000,
  fetchTimeoutMs: 1000,
  retryAfterMs: 600_000,
  maxVersions: 8,
  clock: { now: () => now },
  logger: silentLogger,
  ...o,
});

describe('vendor lists', () => {
  it('reads the file at start', async () => {
    const lists = await createVendorLists(options({ file: VENDOR_LIST_FILE }));
    assert.equal(lists.latest()?.version, 5);
    assert.ok(lists.get(5)?.vendor(10)?.consentPurposes.has(2));
    assert.equal(lists.get(5)?.vendor(40), undefined, 'deleted vendors are not vendors');
    await lists.close();
  });

  it('runs without a list when the file is missing', async () => {
    const lists = await createVendorLists(options({ file: '/nonexistent/vendor-list.json' }));
    assert.equal(lists.latest(), undefined);
    await lists.close();
  });

  it('fetches the URL at start and keeps the last good copy when a refresh fails', async () => {
    failing = false;
    const lists = await createVendorLists(options({ url: `${base}/latest.json`, refreshIntervalMs: 20 }));
    assert.equal(lists.latest()?.version, 5);
    failing = true;
    const before = hits.length;
    for (let i = 0; i < 50 && hits.length < before + 2; i++) await new Promise((r) => setTimeout(r, 10));
    assert.ok(hits.length >= before + 2, 'refreshed');
    assert.equal(lists.latest()?.version, 5);
    failing = false;
    await lists.close();
  });

  it('fetches a version on first use, once, and does not ask again soon for one it could not get', async () => {
    const lists = await createVendorLists(options({ archiveUrl: `${base}/v/{version}.json` }));
    assert.equal(lists.get(4), undefined);
    const [a, b] = await Promise.all([lists.load(4, AbortSignal.timeout(1000)), lists.load(4, AbortSignal.timeout(1000))]);
    assert.equal(a?.version, 4);
    assert.equal(a, b);
    assert.equal(hits.filter((h) => h === '/v/4.json').length, 1);
    assert.equal(lists.get(4)?.version, 4);

    assert.equal(await lists.load(3, AbortSignal.timeout(1000)), undefined);
    assert.equal(await lists.load(3, AbortSignal.timeout(1000)), undefined);
    assert.equal(hits.filter((h) => h === '/v/3.json').length, 1);
    now += 600_001;
    await lists.load(3, AbortSignal.timeout(1000));
    assert.equal(hits.filter((h) => h === '/v/3.json').length, 2);
    await lists.close();
  });
});
