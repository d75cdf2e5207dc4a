import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { ErrorCode, isAppError } from '../core/app-error.js';
import type { AccountFetcher } from './account.js';
import { limitAccountIds, limitStoredRequestIds } from './id-limit.js';
import { nothingFound } from './stored-request-fetcher.js';
import type { StoredRequestFetcher } from './stored-request-fetcher.js';

const refusal = (kind: string) => (err: unknown) =>
  isAppError(err) && err.code === ErrorCode.BAD_REQUEST && err.message === `Invalid ${kind} id: longer than the limit of 8 characters`;

describe('stored-data id limit', () => {
  const asked: string[][] = [];
  const requests: StoredRequestFetcher = limitStoredRequestIds(
    {
      fetchRequests: async (r, i, opts) => {
        asked.push([...r, ...i, opts?.accountId ?? '']);
        return nothingFound(r, i);
      },
    },
    8,
  );

  it('passes ids at the limit on', async () => {
    asked.length = 0;
    const found = await requests.fetchRequests(['12345678'], ['abcdefgh'], { accountId: 'pub-1234' });
    assert.deepEqual(found.missing, ['12345678', 'abcdefgh']);
    assert.deepEqual(asked, [['12345678', 'abcdefgh', 'pub-1234']]);
  });

  it('refuses a request, imp or account id over it before the source is asked, naming the kind, not the id', async () => {
    asked.length = 0;
    await assert.rejects(requests.fetchRequests(['123456789'], []), refusal('stored request'));
    await assert.rejects(requests.fetchRequests(['ok'], ['123456789']), refusal('stored imp'));
    await assert.rejects(requests.fetchRequests(['ok'], [], { accountId: '123456789' }), refusal('account'));
    assert.deepEqual(asked, []);
  });

  it('refuses an account id over it at once (thrown, as the port allows), before the fetcher is asked', () => {
    const fetched: string[] = [];
    const inner: AccountFetcher = { fetch: (id) => void fetched.push(id) };
    const accounts = limitAccountIds(inner, 8);
    assert.equal(accounts.fetch('12345678'), undefined);
    assert.throws(() => accounts.fetch('x'.repeat(500_000)), refusal('account'));
    assert.deepEqual(fetched, ['12345678']);
  });
});
