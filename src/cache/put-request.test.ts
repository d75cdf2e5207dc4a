import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { isAppError } from '../core/app-error.js';
import { parsePutRequest, validatePuts } from './put-request.js';
import type { CacheLimits } from './put-request.js';

const limits: CacheLimits = { maxSizeBytes: 100, maxNumValues: 3, maxTtlSeconds: 3600, allowSettingKeys: false, maxKeyLength: 10 };
const withKeys: CacheLimits = { ...limits, allowSettingKeys: true };

const body = (...puts: unknown[]): string => JSON.stringify({ puts });

const rejects = (text: string, message: string, l: CacheLimits = limits): void => {
  assert.throws(
    () => parsePutRequest(text, l),
    (err) => isAppError(err) && err.code === 'BAD_REQUEST' && err.message === message,
    `expected "${message}"`,
  );
};

describe('parsePutRequest', () => {
  it('accepts xml and json puts, keeping xml text and the raw JSON text', () => {
    const puts = parsePutRequest('{"puts":[{"type":"xml","value":"<VAST version=\\"4.0\\"/>"},{"type":"json","value": {"a" : 1.0}}]}', limits);
    assert.deepEqual(puts, [
      { type: 'xml', value: '<VAST version="4.0"/>', ttlSeconds: 3600 },
      { type: 'json', value: '{"a" : 1.0}', ttlSeconds: 3600 },
    ]);
  });

  it('stores malformed XML as given', () => {
    assert.equal(parsePutRequest(body({ type: 'xml', value: '<VAST><Ad>' }), limits)[0]?.value, '<VAST><Ad>');
  });

  it('applies the TTL rules: missing or 0 → max, above max → capped, in range → kept', () => {
    const puts = parsePutRequest(
      body({ type: 'xml', value: 'a' }, { type: 'xml', value: 'b', ttlseconds: 0 }, { type: 'xml', value: 'c', ttlseconds: 99999 }),
      limits,
    );
    assert.deepEqual(puts.map((p) => p.ttlSeconds), [3600, 3600, 3600]);
    assert.equal(parsePutRequest(body({ type: 'xml', value: 'a', ttlseconds: 60 }), limits)[0]?.ttlSeconds, 60);
    assert.equal(parsePutRequest(body({ type: 'xml', value: 'a', ttlseconds: null }), limits)[0]?.ttlSeconds, 3600);
  });

  it('rejects a negative TTL with Prebid Cache\'s message', () => rejects(body({ type: 'xml', value: 'a', ttlseconds: -1 }), 'ttlseconds must not be negative -1.'));
  it('rejects a TTL that is not an integer', () => {
    rejects(body({ type: 'xml', value: 'a', ttlseconds: '60' }), 'ttlseconds must be an integer. Found "60"');
    rejects(body({ type: 'xml', value: 'a', ttlseconds: 1.5 }), 'ttlseconds must be an integer. Found 1.5');
  });

  it('rejects a missing value', () => rejects(body({ type: 'xml' }), 'Missing value.'));
  it('stores a null json value as null', () => assert.equal(parsePutRequest('{"puts":[{"type":"json","value":null}]}', limits)[0]?.value, 'null'));
  it('rejects an unknown, missing or differently cased type', () => {
    rejects(body({ type: 'yaml', value: 'a' }), 'Type must be one of ["json", "xml"]. Found \'yaml\'');
    rejects(body({ value: 'a' }), 'Type must be one of ["json", "xml"]. Found \'\'');
    rejects(body({ type: 'XML', value: 'a' }), 'Type must be one of ["json", "xml"]. Found \'XML\'');
    rejects(body({ type: 7, value: 'a' }), 'Type must be one of ["json", "xml"]. Found \'7\'');
  });
  it('rejects an xml value that is not a string', () => {
    rejects(body({ type: 'xml', value: 5 }), 'XML messages must have a String value. Found 5');
    rejects(body({ type: 'xml', value: { a: 1 } }), 'XML messages must have a String value. Found {"a":1}');
  });

  it('counts size in UTF-8 bytes of the stored text and names the element', () => {
    assert.equal(parsePutRequest(body({ type: 'xml', value: 'x'.repeat(100) }), limits).length, 1);
    rejects(body({ type: 'xml', value: 'a' }, { type: 'xml', value: 'é'.repeat(51) }), 'POST /cache element 1 exceeded max size: Payload size 102 exceeded max 100');
    rejects(body({ type: 'json', value: 'x'.repeat(99) }), 'POST /cache element 0 exceeded max size: Payload size 101 exceeded max 100');
    // Three-byte characters, at the limit and one character over it.
    assert.equal(parsePutRequest(body({ type: 'xml', value: '€'.repeat(33) }), limits).length, 1);
    rejects(body({ type: 'xml', value: '€'.repeat(34) }), 'POST /cache element 0 exceeded max size: Payload size 102 exceeded max 100');
    assert.equal(parsePutRequest(body({ type: 'xml', value: 'é'.repeat(50) }), limits).length, 1);
  });

  it('rejects more puts than allowed, before looking at any', () => {
    rejects(body({}, {}, {}, {}), 'More keys than allowed: 4');
  });

  it('reports the first invalid put in order', () => rejects(body({ type: 'xml', value: 'ok' }, { type: 'xml' }, { type: 'nope', value: 1 }), 'Missing value.'));

  it('rejects bodies that are empty, not JSON, or not an object with a puts array', () => {
    rejects('', 'Request body is empty.');
    rejects('  \n', 'Request body is empty.');
    // Our words, never the parser's message (which quotes the body and varies between Node versions).
    assert.throws(() => parsePutRequest('{"puts":[', limits), (err) => isAppError(err) && err.message === 'Request body is not valid JSON.');
    for (const text of ['null', '[]', '"x"', '{}', '{"puts":null}', '{"puts":{}}']) {
      rejects(text, 'Request body must be a JSON object with a "puts" array.');
    }
    rejects('{"puts":[7]}', 'puts[0] must be a JSON object.');
  });

  it('accepts an empty puts array', () => assert.deepEqual(parsePutRequest('{"puts":[]}', limits), []));

  it('ignores keys when keys are not allowed, whatever their type', () => {
    const [put] = parsePutRequest(body({ type: 'xml', value: 'a', key: 'mine' }), limits);
    assert.equal(put?.key, undefined);
    assert.equal(parsePutRequest(body({ type: 'xml', value: 'a', key: 5 }), limits)[0]?.key, undefined);
  });

  it('honours keys when allowed, treating an empty key as none', () => {
    assert.equal(parsePutRequest(body({ type: 'xml', value: 'a', key: 'mine' }), withKeys)[0]?.key, 'mine');
    assert.equal(parsePutRequest(body({ type: 'xml', value: 'a', key: '' }), withKeys)[0]?.key, undefined);
    rejects(body({ type: 'xml', value: 'a', key: 5 }), 'key must be a string.', withKeys);
    rejects(body({ type: 'xml', value: 'a', key: 'k'.repeat(11) }), 'key must be at most 10 characters. Found 11', withKeys);
  });

  it('refuses keys another user of the store reserved, and only those', () => {
    const reserving = { ...withKeys, reservedKeys: { prefix: 'mod:', owner: 'the module' } };
    rejects(body({ type: 'xml', value: 'a', key: 'mod:x' }), "key must not start with 'mod:', which is reserved for the module.", reserving);
    assert.equal(parsePutRequest(body({ type: 'xml', value: 'a', key: 'mo:x' }), reserving)[0]?.key, 'mo:x');
    assert.equal(parsePutRequest(body({ type: 'xml', value: 'a', key: 'mod:x' }), withKeys)[0]?.key, 'mod:x');
  });
});

describe('validatePuts', () => {
  it('applies the same rules to text handed over in-process', () => {
    assert.deepEqual(validatePuts([{ type: 'json', value: '{"a":1}', ttlseconds: 60 }, { type: 'xml', value: '<VAST/>' }], limits), [
      { type: 'json', value: '{"a":1}', ttlSeconds: 60 },
      { type: 'xml', value: '<VAST/>', ttlSeconds: 3600 },
    ]);
    assert.throws(() => validatePuts([{ type: 'xml', value: 'a', ttlseconds: -5 }], limits), /ttlseconds must not be negative -5\./);
    assert.throws(() => validatePuts([{ type: 'json', value: { a: 1 } }], limits), /JSON values must be handed over as JSON text/);
    assert.throws(() => validatePuts([{}, {}, {}, {}].map(() => ({ type: 'xml', value: 'a' })), limits), /More keys than allowed: 4/);
  });
});
