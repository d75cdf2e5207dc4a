import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { cookieValue } from './cookies.js';

describe('cookieValue', () => {
  it('finds a cookie among others, the first of duplicates, a quoted value, and keeps = inside values', () => {
    assert.equal(cookieValue('a=1; uids=e30=; b=2', 'uids'), 'e30=');
    assert.equal(cookieValue('uids=first; uids=second', 'uids'), 'first');
    assert.equal(cookieValue('uids="abc"', 'uids'), 'abc');
    assert.equal(cookieValue(['a=1', 'uids=x'], 'uids'), 'x');
  });
  it('answers undefined without the header, the cookie, or for a name that only ends like it', () => {
    assert.equal(cookieValue(undefined, 'uids'), undefined);
    assert.equal(cookieValue('a=1', 'uids'), undefined);
    assert.equal(cookieValue('myuids=1; uids', 'uids'), undefined);
  });
});
