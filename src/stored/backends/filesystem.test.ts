import assert from 'node:assert/strict';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import { storedDataContract } from '../../../test/support/stored-contract.js';
import { waitFor } from '../../../test/support/ports.js';
import { isAppError } from '../../core/app-error.js';
import { silentLogger } from '../../core/logger.js';
import type { StoredKind } from '../fetcher-cache.js';
import { createFilesystemAccountFetcher, createFilesystemStoredRequestFetcher, isFileId } from './filesystem.js';

const folders = () => {
  const root = mkdtempSync(join(tmpdir(), 'openbid-stored-'));
  const dirs = { requestsDir: join(root, 'requests'), impsDir: join(root, 'imps'), accountsDir: join(root, 'accounts') };
  for (const d of Object.values(dirs)) mkdirSync(d);
  return { root, ...dirs };
};

storedDataContract('filesystem', async () => {
  const f = folders();
  const fetcher = createFilesystemStoredRequestFetcher(f, { logger: silentLogger });
  const accounts = createFilesystemAccountFetcher(f.accountsDir, { logger: silentLogger });
  const dirOf = { request: f.requestsDir, imp: f.impsDir, account: f.accountsDir };
  return {
    fetcher,
    accounts,
    put: async (kind, id, value) => writeFileSync(join(dirOf[kind], `${id}.json`), JSON.stringify(value, null, 2)),
    cleanup: async () => {
      await fetcher.close();
      await accounts.close();
      rmSync(f.root, { recursive: true, force: true });
    },
  };
});

describe('filesystem stored data', () => {
  let f: ReturnType<typeof folders>;
  before(() => {
    f = folders();
  });
  after(() => rmSync(f.root, { recursive: true, force: true }));

  it('serves a file byte for byte (no re-serialisation), without a byte-order mark', async () => {
    const text = '{ "id" : "spaced",\n  "tmax": 300 }\n';
    writeFileSync(join(f.requestsDir, 'exact.json'), `\ufeff${text}`);
    const fetcher = createFilesystemStoredRequestFetcher(f, { logger: silentLogger });
    assert.equal((await fetcher.fetchRequests(['exact'], [])).requests.get('exact'), text);
    await fetcher.close();
  });

  it('never reads outside its folder: such ids are missing', async () => {
    writeFileSync(join(f.root, 'secret.json'), '{"secret":true}');
    writeFileSync(join(f.requestsDir, '.hidden.json'), '{}');
    const fetcher = createFilesystemStoredRequestFetcher(f, { logger: silentLogger });
    const ids = ['../secret', '..', '.hidden', 'a/../../secret', `..\\secret`, 'x\0y', join(f.root, 'secret')];
    const found = await fetcher.fetchRequests(ids, ['../secret']);
    assert.equal(found.requests.size + found.imps.size, 0);
    assert.deepEqual(found.missing, [...ids, '../secret']);
    for (const id of ids) assert.equal(isFileId(id), false, id);
    await fetcher.close();
  });

  it('treats a folder that does not exist, or is turned off, as holding nothing', async () => {
    const fetcher = createFilesystemStoredRequestFetcher({ requestsDir: join(f.root, 'nowhere'), impsDir: '' }, { logger: silentLogger, onChange: () => undefined });
    assert.deepEqual((await fetcher.fetchRequests(['a'], ['b'])).missing, ['a', 'b']);
    await fetcher.close();
    assert.equal(await createFilesystemAccountFetcher('', { logger: silentLogger }).fetch('a'), undefined);
  });

  it('fails cleanly on an entry it cannot read', async () => {
    mkdirSync(join(f.requestsDir, 'a-folder.json'));
    const fetcher = createFilesystemStoredRequestFetcher(f, { logger: silentLogger });
    await assert.rejects(
      fetcher.fetchRequests(['a-folder'], []),
      (err) => isAppError(err) && err.code === 'BACKEND_FAILURE' && err.message === 'request files: cannot read a-folder.json: EISDIR',
    );
    await fetcher.close();
  });

  it('refuses an account file that is not JSON', async () => {
    writeFileSync(join(f.accountsDir, 'broken.json'), '{"events": ');
    await assert.rejects(
      async () => createFilesystemAccountFetcher(f.accountsDir, { logger: silentLogger }).fetch('broken'),
      (err) => isAppError(err) && err.code === 'BACKEND_FAILURE' && err.message.startsWith("account 'broken' from file is not valid JSON"),
    );
  });

  it('says which file changed, added or removed, per folder', async () => {
    const changes: string[] = [];
    const onChange = (kind: StoredKind, id: string | undefined) => void changes.push(`${kind}:${id ?? '*'}`);
    const fetcher = createFilesystemStoredRequestFetcher(f, { logger: silentLogger, onChange });
    const accounts = createFilesystemAccountFetcher(f.accountsDir, { logger: silentLogger, onChange });
    writeFileSync(join(f.requestsDir, 'watched.json'), '{"v":1}');
    await waitFor('the change of watched.json', async () => changes.includes('request:watched'));
    writeFileSync(join(f.impsDir, 'imp-w.json'), '{}');
    writeFileSync(join(f.accountsDir, 'acct-w.json'), '{}');
    writeFileSync(join(f.requestsDir, 'notes.txt'), 'not stored data');
    await waitFor('imp and account changes', async () => changes.includes('imp:imp-w') && changes.includes('account:acct-w'));
    rmSync(join(f.requestsDir, 'watched.json'));
    changes.length = 0;
    await waitFor('the removal of watched.json', async () => changes.includes('request:watched'));
    assert.ok(!changes.some((c) => c.includes('notes')), 'only <id>.json files are stored data');
    await fetcher.close();
    await accounts.close();
  });
});

describe('the sample stored request', () => {
  it('is served from the default folder under tag_id sample-amp, as AMP needs it', async () => {
    const fetcher = createFilesystemStoredRequestFetcher({ requestsDir: new URL('../../../stored_requests', import.meta.url).pathname, impsDir: '' }, { logger: silentLogger });
    const text = (await fetcher.fetchRequests(['sample-amp'], [])).requests.get('sample-amp');
    await fetcher.close();
    const stored = JSON.parse(text ?? 'null') as { app?: unknown; imp: { banner?: unknown; ext: { prebid: { bidder: Record<string, unknown> } } }[] };
    assert.equal(stored.imp.length, 1);
    assert.equal(stored.app, undefined);
    assert.ok(stored.imp[0]?.banner);
    // A built-in adapter, so the sample runs on the embedded defaults with no adapters configured.
    assert.deepEqual(stored.imp[0]?.ext.prebid.bidder, { appnexus: { placementId: 13144370 } });
  });
});
