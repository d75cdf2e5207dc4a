import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { isAppError } from '../core/app-error.js';
import { createAccountResolver, mergeSettings } from './account.js';
import type { AccountFetcher, AccountSettings } from './account.js';

describe('account resolution', () => {
  const known: Record<string, AccountSettings> = { off: { events: { enabled: false } }, empty: {} };
  const fetcher: AccountFetcher = { fetch: async (id) => known[id] };
  const defaults = { events: { enabled: true } };

  it('merges an account over the defaults', async () => {
    const resolve = createAccountResolver({ fetcher, defaults, required: false });
    assert.deepEqual(await resolve('off'), { id: 'off', events: { enabled: false } });
    assert.deepEqual(await resolve('empty'), { id: 'empty', events: { enabled: true } });
  });

  it('gives an unknown account the defaults unless accounts are required', async () => {
    assert.deepEqual(await createAccountResolver({ fetcher, defaults, required: false })('stranger'), { id: 'stranger', events: { enabled: true } });
    await assert.rejects(
      async () => createAccountResolver({ fetcher, defaults, required: true })('stranger'),
      (err) => isAppError(err) && err.code === 'UNAUTHORIZED' && err.message === 'Unauthorized account id: stranger',
    );
    assert.equal((await createAccountResolver({ fetcher, defaults, required: true })('empty')).id, 'empty');
  });

  it('deep-merges objects, replaces arrays and scalars, ignores undefined', () => {
    assert.deepEqual(mergeSettings({ a: { b: 1, c: [1, 2] }, d: 'x' }, { a: { c: [3] }, d: undefined, e: true }), { a: { b: 1, c: [3] }, d: 'x', e: true });
  });
});
