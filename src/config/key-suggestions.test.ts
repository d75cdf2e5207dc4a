import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { didYouMean, editDistance, nearestKeys, suggestKeys } from './key-suggestions.js';
import type { KeySchemaNode } from './key-suggestions.js';
import { ConfigSchema } from './schema.js';

const root = ConfigSchema as unknown as KeySchemaNode;
const section = (name: string): KeySchemaNode => root.properties?.[name] ?? assert.fail(`no section ${name}`);

describe('editDistance', () => {
  it('counts insertions, deletions, substitutions and neighbour swaps as one each', () => {
    assert.equal(editDistance('port', 'port'), 0);
    assert.equal(editDistance('port', 'portt'), 1);
    assert.equal(editDistance('port', 'prt'), 1);
    assert.equal(editDistance('port', 'pert'), 1);
    assert.equal(editDistance('defualt', 'default'), 1);
    assert.equal(editDistance('', 'abc'), 3);
    assert.equal(editDistance('kitten', 'sitting'), 3);
    // Optimal string alignment: a swapped pair is not edited again.
    assert.equal(editDistance('ca', 'abc'), 3);
  });
});

describe('nearestKeys', () => {
  const keys = ['host', 'port', 'external_url', 'workers', 'shutdown_timeout_ms', 'admin_port', 'storage-path'];

  it('gives the nearest keys within 40% of the length, ignoring case and - versus _', () => {
    assert.deepEqual(nearestKeys('portt', keys), ['port']);
    assert.deepEqual(nearestKeys('Port', keys), ['port']);
    assert.deepEqual(nearestKeys('externl_url', keys), ['external_url']);
    assert.deepEqual(nearestKeys('storage_path', keys), ['storage-path']);
    assert.deepEqual(nearestKeys('wrokers', keys), ['workers']);
  });

  it('counts a key written without its unit as one edit away', () => {
    assert.deepEqual(nearestKeys('shutdown_timeout', keys), ['shutdown_timeout_ms']);
  });

  it('gives nothing when nothing is near', () => {
    assert.deepEqual(nearestKeys('colour', keys), []);
    assert.deepEqual(nearestKeys('gdpr', keys), []);
    assert.deepEqual(nearestKeys('x'.repeat(100), keys), []);
  });

  it('gives every key at the least distance, three at most', () => {
    assert.deepEqual(nearestKeys('pot', ['pet', 'pit', 'put', 'pat', 'port']), ['pet', 'pit', 'put']);
  });
});

describe('suggestKeys', () => {
  it('suggests the nearest key of the same level first', () => {
    assert.deepEqual(suggestKeys(root, section('server'), 'server', 'prot'), ['server.port']);
    assert.deepEqual(suggestKeys(root, section('auction'), 'auction', 'default_timeout'), ['auction.default_timeout_ms']);
  });

  it("finds a pasted Prebid Server key's section here", () => {
    assert.deepEqual(suggestKeys(root, root, '', 'port'), ['server.port']);
    assert.deepEqual(suggestKeys(root, root, '', 'external_url'), ['server.external_url']);
    assert.deepEqual(suggestKeys(root, root, '', 'host'), ['server.host']);
    assert.equal(suggestKeys(root, root, '', 'gdpr')[0], 'privacy.gdpr');
    assert.deepEqual(suggestKeys(root, root, '', 'account_required'), ['accounts.required']);
    assert.deepEqual(suggestKeys(root, root, '', 'auction_timeouts_ms'), ['auction.default_timeout_ms', 'auction.max_timeout_ms']);
    assert.deepEqual(suggestKeys(root, section('cache'), 'cache', 'scheme'), ['auction.cache.url']);
  });

  it('suggests nothing for a key unlike any', () => {
    assert.deepEqual(suggestKeys(root, root, '', 'zzzzqqqq'), []);
  });
});

describe('didYouMean', () => {
  it('lists one, two or three paths', () => {
    assert.equal(didYouMean([]), '');
    assert.equal(didYouMean(['a']), 'did you mean a?');
    assert.equal(didYouMean(['a', 'b']), 'did you mean a or b?');
    assert.equal(didYouMean(['a', 'b', 'c']), 'did you mean a, b or c?');
  });
});
