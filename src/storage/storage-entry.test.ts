import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { isAppError } from '../core/app-error.js';
import { parseStorageEntry } from './storage-entry.js';

const limits = { defaultTtlSeconds: 300, maxTtlSeconds: 3600, maxValueBytes: 10, maxKeyLength: 5 };
const parse = (body: unknown) => parseStorageEntry(typeof body === 'string' ? body : JSON.stringify(body), limits);
const problems = (body: unknown): string[] => {
  try {
    parse(body);
  } catch (err) {
    assert.ok(isAppError(err) && err.code === 'BAD_REQUEST');
    return err.message.split('\n');
  }
  return assert.fail('expected BAD_REQUEST');
};

describe('parseStorageEntry', () => {
  it('accepts a complete entry, lower-casing the type and defaulting the TTL', () => {
    assert.deepEqual(parse({ key: 'k', value: 'v', type: 'TeXt', application: 'app' }), { application: 'app', key: 'k', type: 'text', value: 'v', ttlSeconds: 300 });
    assert.equal(parse({ key: 'k', value: 'v', type: 'json', application: 'app', ttlseconds: 3600 }).ttlSeconds, 3600);
  });

  it('ignores unknown fields', () => assert.equal(parse({ key: 'k', value: 'v', type: 'xml', application: 'a', extra: 1 }).type, 'xml'));

  it('measures the value in UTF-8 bytes', () => {
    assert.equal(parse({ key: 'k', value: 'ééééé', type: 'text', application: 'a' }).value, 'ééééé');
    assert.deepEqual(problems({ key: 'k', value: 'éééééé', type: 'text', application: 'a' }), ['value is larger than the limit of 10 bytes. Found 12']);
  });

  it('lists every problem, in field order', () => {
    assert.deepEqual(problems({ key: 'toolong', value: null, type: 7, application: '', ttlseconds: 1.5 }), [
      'key must be at most 5 characters. Found 7',
      'value is required.',
      'type must be a string. Found number',
      'application must not be empty.',
      'ttlseconds must be a positive integer. Found 1.5',
    ]);
  });

  it('refuses a TTL that is zero, negative, a string or over the maximum', () => {
    const base = { key: 'k', value: 'v', type: 'text', application: 'a' };
    assert.deepEqual(problems({ ...base, ttlseconds: 0 }), ['ttlseconds must be a positive integer. Found 0']);
    assert.deepEqual(problems({ ...base, ttlseconds: -5 }), ['ttlseconds must be a positive integer. Found -5']);
    assert.deepEqual(problems({ ...base, ttlseconds: '60' }), ['ttlseconds must be a positive integer. Found "60"']);
    assert.deepEqual(problems({ ...base, ttlseconds: 3601 }), ['ttlseconds must be at most 3600. Found 3601']);
  });

  it('refuses bodies that are not a JSON object', () => {
    assert.deepEqual(problems(''), ['Request body is empty.']);
    assert.equal(problems('{')[0], 'Request body is not valid JSON.');
    for (const body of ['null', '[]', '"s"', '5']) assert.deepEqual(problems(body), ['Request body must be a JSON object with key, value, type and application.']);
  });
});
