import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { isAppError } from '../core/app-error.js';
import { DEFAULT_ACCOUNT_SETTINGS } from './account-schema.js';
import { createAccountResolver, mergeSettings } from './account.js';
import type { AccountFetcher, AccountSettings } from './account.js';

describe('account resolution', () => {
  const known: Record<string, AccountSettings> = {
    off: { events: { enabled: false } },
    empty: {},
    coarse: { auction: { price_granularity: 'low', targeting_prefix: 'pb' } },
  };
  const fetcher: AccountFetcher = { fetch: async (id) => known[id] };
  const defaults = DEFAULT_ACCOUNT_SETTINGS;

  it('merges an account over the defaults', async () => {
    const resolve = createAccountResolver({ fetcher, defaults, required: false });
    assert.deepEqual(await resolve('off'), { ...defaults, id: 'off', events: { enabled: false } });
    assert.deepEqual(await resolve('empty'), { ...defaults, id: 'empty' });
    assert.deepEqual(await resolve('coarse'), {
      ...defaults,
      id: 'coarse',
      auction: { ...defaults.auction, price_granularity: 'low', targeting_prefix: 'pb' },
    });
  });

  it('gives an unknown account the defaults unless accounts are required', async () => {
    assert.deepEqual(await createAccountResolver({ fetcher, defaults, required: false })('stranger'), { ...defaults, id: 'stranger' });
    await assert.rejects(
      async () => createAccountResolver({ fetcher, defaults, required: true })('stranger'),
      (err) => isAppError(err) && err.code === 'UNAUTHORIZED' && err.message === 'Unauthorized account id: stranger',
    );
    assert.equal((await createAccountResolver({ fetcher, defaults, required: true })('empty')).id, 'empty');
  });

  it('computes the merged account once per fetched settings object, and freezes it', async () => {
    let merges = 0;
    const settings: AccountSettings = { auction: { debug_allow: false } };
    const counting: AccountFetcher = {
      fetch: (id) => {
        if (id !== 'a') return undefined;
        merges++;
        return settings;
      },
    };
    const resolve = createAccountResolver({ fetcher: counting, defaults, required: false });
    const first = resolve('a');
    const second = resolve('a');
    assert.equal(merges, 2, 'the fetcher is asked each time');
    assert.equal(first, second, 'the same merged object is handed out');
    assert.ok(Object.isFrozen(first) && Object.isFrozen((first as { auction: object }).auction));
    // Another settings object (the cache refreshed it) is merged anew.
    const refreshed = createAccountResolver({ fetcher: { fetch: () => ({ auction: { debug_allow: false } }) }, defaults, required: false });
    assert.notEqual(refreshed('a'), refreshed('a'));
  });

  it('answers directly when the fetcher does', () => {
    const resolve = createAccountResolver({ fetcher: { fetch: (id) => known[id] }, defaults, required: false });
    const account = resolve('off');
    assert.ok(!(account instanceof Promise));
    assert.equal(account.events.enabled, false);
  });

  it('deep-merges objects, replaces arrays and scalars, ignores undefined', () => {
    assert.deepEqual(mergeSettings({ a: { b: 1, c: [1, 2] }, d: 'x' }, { a: { c: [3] }, d: undefined, e: true }), { a: { b: 1, c: [3] }, d: 'x', e: true });
  });
});
