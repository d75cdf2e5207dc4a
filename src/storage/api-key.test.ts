import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { isAppError } from '../core/app-error.js';
import { createApiKeyCheck } from './api-key.js';

const checkApiKey = (configured: string, provided: string | undefined): void => createApiKeyCheck(configured)(provided);

const refused = (configured: string, provided: string | undefined, message: string): void => {
  assert.throws(() => checkApiKey(configured, provided), (err) => isAppError(err) && err.code === 'UNAUTHORIZED' && err.message === message);
};

describe('createApiKeyCheck', () => {
  it('accepts the exact key', () => assert.doesNotThrow(() => checkApiKey('Key-1', 'Key-1')));
  it('refuses a missing key', () => {
    refused('Key-1', undefined, 'Missing API key: send it in the x-svc-api-key header.');
    refused('Key-1', '', 'Missing API key: send it in the x-svc-api-key header.');
  });
  it('refuses another key, another case, a prefix or an extension', () => {
    for (const wrong of ['key-1', 'KEY-1', 'Key-', 'Key-12', ' Key-1']) refused('Key-1', wrong, 'Invalid API key.');
  });
  it('refuses everyone when no key is configured', () => {
    refused('', '', 'Storage is closed: no api.api-key is configured on this server.');
    refused('', 'anything', 'Storage is closed: no api.api-key is configured on this server.');
  });
  it('accepts a header repeated by the client (joined by ", ")', () => {
    assert.doesNotThrow(() => checkApiKey('Key-1', 'Key-1, Key-1'));
    refused('Key-1', 'nope, nope', 'Invalid API key.');
  });
  it('accepts a key that itself contains ", "', () => assert.doesNotThrow(() => checkApiKey('a, b', 'a, b')));
});
