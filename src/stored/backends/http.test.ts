import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { storedDataContract } from '../../../test/support/stored-contract.js';
import { startStoredHttpServer } from '../../../test/support/stored-http-server.js';
import type { StoredHttpServer } from '../../../test/support/stored-http-server.js';
import { freePort } from '../../../test/support/ports.js';
import { isAppError } from '../../core/app-error.js';
import { createHttpAccountFetcher, createHttpStoredRequestFetcher } from './http.js';

storedDataContract('http', async () => {
  const server = await startStoredHttpServer();
  const fetcher = createHttpStoredRequestFetcher({ endpoint: server.endpoint, timeoutMs: 2000 });
  const accounts = createHttpAccountFetcher({ endpoint: server.endpoint, timeoutMs: 2000 });
  const maps = { request: server.requests, imp: server.imps, account: server.accounts };
  return {
    fetcher,
    accounts,
    put: async (kind, id, value) => void maps[kind].set(id, value),
    cleanup: async () => {
      await fetcher.close();
      await accounts.close();
      await server.close();
    },
  };
});

const failsWith = (code: string, message: string | RegExp) => (err: unknown) =>
  isAppError(err) && err.code === code && (typeof message === 'string' ? err.message === message : message.test(err.message));

describe('http stored data', () => {
  let server: StoredHttpServer;
  before(async () => {
    server = await startStoredHttpServer();
  });
  after(async () => server.close());

  it("asks as Prebid Server's HTTP fetcher does: JSON arrays of ids, only the kinds asked for", async () => {
    const fetcher = createHttpStoredRequestFetcher({ endpoint: `${server.endpoint}?source=openbid`, timeoutMs: 1000 });
    const accounts = createHttpAccountFetcher({ endpoint: server.endpoint, timeoutMs: 1000 });
    server.calls.length = 0;
    await fetcher.fetchRequests(['r1', 'r"2'], ['i1']);
    await fetcher.fetchRequests([], ['i2']);
    await fetcher.fetchRequests([], []);
    await accounts.fetch('a1');
    assert.deepEqual(
      server.calls.map((q) => Object.fromEntries(new URLSearchParams(q))),
      [
        { source: 'openbid', 'request-ids': '["r1","r\\"2"]', 'imp-ids': '["i1"]' },
        { source: 'openbid', 'imp-ids': '["i2"]' },
        { 'account-ids': '["a1"]' },
      ],
    );
    await fetcher.close();
    await accounts.close();
  });

  it('treats an id answered with null as missing', async () => {
    const fetcher = createHttpStoredRequestFetcher({ endpoint: server.endpoint, timeoutMs: 1000 });
    server.requests.set('here', { id: 'here' });
    const found = await fetcher.fetchRequests(['here', 'nulled'], []);
    assert.deepEqual([...found.requests.keys()], ['here']);
    assert.deepEqual(found.missing, ['nulled']);
    await fetcher.close();
  });

  it('fails cleanly on an error status or an answer that is not JSON', async () => {
    const fetcher = createHttpStoredRequestFetcher({ endpoint: server.endpoint, timeoutMs: 1000 });
    const accounts = createHttpAccountFetcher({ endpoint: server.endpoint, timeoutMs: 1000 });
    try {
      server.mode = 'error';
      await assert.rejects(fetcher.fetchRequests(['a'], []), failsWith('BACKEND_FAILURE', 'http stored requests: unexpected response status 500'));
      await assert.rejects(async () => accounts.fetch('a'), failsWith('BACKEND_FAILURE', 'http accounts: unexpected response status 500'));
      server.mode = 'garbage';
      await assert.rejects(fetcher.fetchRequests(['a'], []), failsWith('BACKEND_FAILURE', /^http stored requests: answer is not JSON/));
    } finally {
      server.mode = 'ok';
      await fetcher.close();
      await accounts.close();
    }
  });

  it('gives up after its timeout, or when the caller aborts', async () => {
    const fetcher = createHttpStoredRequestFetcher({ endpoint: server.endpoint, timeoutMs: 100 });
    try {
      server.mode = 'hang';
      const started = Date.now();
      await assert.rejects(fetcher.fetchRequests(['a'], []), failsWith('BACKEND_TIMEOUT', 'http stored requests: no answer within 100 ms'));
      assert.ok(Date.now() - started < 1000);
      const slow = createHttpStoredRequestFetcher({ endpoint: server.endpoint, timeoutMs: 10_000 });
      const abort = new AbortController();
      const pending = slow.fetchRequests(['a'], [], { signal: abort.signal });
      abort.abort();
      await assert.rejects(pending, failsWith('BACKEND_TIMEOUT', /abandoned/));
      await slow.close();
    } finally {
      server.mode = 'ok';
      await fetcher.close();
    }
  });

  it('fails cleanly when the service is down', async () => {
    const fetcher = createHttpStoredRequestFetcher({ endpoint: `http://127.0.0.1:${await freePort()}/stored`, timeoutMs: 1000 });
    await assert.rejects(fetcher.fetchRequests(['a'], []), failsWith('BACKEND_FAILURE', /^http stored requests: ECONNREFUSED/));
    await fetcher.close();
  });

  it('refuses an answer larger than its limit', async () => {
    server.requests.set('big', { blob: 'x'.repeat(10_000) });
    const fetcher = createHttpStoredRequestFetcher({ endpoint: server.endpoint, timeoutMs: 1000, maxResponseBytes: 4096 });
    await assert.rejects(fetcher.fetchRequests(['big'], []), failsWith('BACKEND_FAILURE', 'http stored requests: answer larger than 4096 bytes'));
    await fetcher.close();
  });
});
