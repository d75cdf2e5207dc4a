import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { createConfigAccountFetcher } from './config-accounts.js';

describe('config account fetcher', () => {
  it('answers the configured settings of known accounts and nothing for others', async () => {
    const fetcher = createConfigAccountFetcher({ a1: { events: { enabled: false } }, a2: {} });
    assert.deepEqual(await fetcher.fetch('a1'), { events: { enabled: false } });
    assert.deepEqual(await fetcher.fetch('a2'), {});
    assert.equal(await fetcher.fetch('a3'), undefined);
    assert.equal(await fetcher.fetch('__proto__'), undefined);
  });
});
