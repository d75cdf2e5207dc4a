import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { cookieValue, readUidsCookie } from './request-cookie.js';
import { encodeUidsCookie } from './uids-cookie.js';

describe('cookieValue', () => {
  it('finds the first cookie of the name, trimmed and unquoted', () => {
    assert.equal(cookieValue('a=1; uids=x; uids=y', 'uids'), 'x');
    assert.equal(cookieValue('xuids=1;uids="q"', 'uids'), 'q');
    assert.equal(cookieValue('a=1', 'uids'), undefined);
    assert.equal(cookieValue(undefined, 'uids'), undefined);
    assert.equal(cookieValue('uids', 'uids'), undefined);
    assert.equal(cookieValue('uids=a=b', 'uids'), 'a=b');
  });
});

describe('readUidsCookie', () => {
  const ids = `uids=${encodeUidsCookie({ uids: new Map([['pubmatic', { uid: '1', expiresAt: Date.parse('2030-01-01T00:00:00Z') }]]), optOut: false })}`;
  it('decodes uids; the host opt-out cookie with its value opts out', () => {
    assert.equal(readUidsCookie(ids, { name: '', value: '' }).uids.get('pubmatic')?.uid, '1');
    const out = readUidsCookie(`${ids}; optout=true`, { name: 'optout', value: 'true' });
    assert.deepEqual([out.optOut, out.uids.size], [true, 0]);
    assert.equal(readUidsCookie(`${ids}; optout=false`, { name: 'optout', value: 'true' }).optOut, false);
  });
});
