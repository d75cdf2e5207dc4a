import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { ALLOW_ALL_FILTER, bidderFilter, chooseSyncers, orderBidders, shuffle, syncTypesFor } from './chooser.js';
import type { ChooseInput } from './chooser.js';
import { createSyncerRegistry } from './syncers.js';

/** A random source that never swaps: every shuffle keeps the order. */
const keepOrder = (): number => 0.999999;

const redirect = (url: string) => ({ redirect: { url: `${url}?r={{.RedirectURL}}`, userMacro: '' } });
const iframeOnly = (url: string) => ({ iframe: { url: `${url}?r={{.RedirectURL}}`, userMacro: '' } });
const registry = createSyncerRegistry(
  [
    { code: 'a', userSync: redirect('https://a.example/') },
    { code: 'b', userSync: redirect('https://b.example/') },
    { code: 'c', userSync: { key: 'shared', ...redirect('https://c.example/') } },
    { code: 'c2', userSync: { key: 'shared', ...redirect('https://c.example/') } },
    { code: 'fr', userSync: iframeOnly('https://fr.example/') },
  ],
  { externalUrl: 'https://pbs', redirectUrl: '' },
);

const input = (over: Partial<ChooseInput>): ChooseInput => ({
  bidders: [],
  cooperative: { enabled: false, priorityGroups: [] },
  limit: 0,
  filter: { iframe: ALLOW_ALL_FILTER, redirect: ALLOW_ALL_FILTER },
  registry,
  isKnownBidder: (code) => ['a', 'b', 'c', 'c2', 'fr', 'nosync'].includes(code),
  hasLiveSync: () => false,
  privacy: { activityAllows: () => true, regulationsAllow: () => true },
  random: keepOrder,
  ...over,
});

describe('bidder filters (Prebid Server bidderfilter.go)', () => {
  it('includes or excludes all or listed bidders, case-insensitively', () => {
    assert.equal(bidderFilter('include', '*').allowed('x'), true);
    assert.equal(bidderFilter('exclude', '*').allowed('x'), false);
    assert.equal(bidderFilter('include', ['A']).allowed('a'), true);
    assert.equal(bidderFilter('include', ['A']).allowed('b'), false);
    assert.equal(bidderFilter('exclude', ['A']).allowed('a'), false);
    assert.equal(bidderFilter('exclude', ['A']).allowed('b'), true);
    assert.deepEqual(syncTypesFor({ iframe: bidderFilter('exclude', '*'), redirect: ALLOW_ALL_FILTER }, 'a'), ['redirect']);
  });
});

describe('bidder order (Prebid Server bidderchooser.go)', () => {
  it('shuffles with the injected source', () => {
    assert.deepEqual(shuffle([1, 2, 3], keepOrder), [1, 2, 3]);
    assert.deepEqual(shuffle([1, 2, 3], () => 0), [2, 3, 1]);
  });
  it('requested bidders, or every bidder with a syncer when none are requested', () => {
    assert.deepEqual(orderBidders(['x', 'y'], ['a'], { enabled: false, priorityGroups: [['p']] }, keepOrder), ['x', 'y']);
    assert.deepEqual(orderBidders([], ['a', 'b'], { enabled: false, priorityGroups: [] }, keepOrder), ['a', 'b']);
  });
  it('cooperative: requested, then each priority group, then every bidder', () => {
    assert.deepEqual(orderBidders(['x'], ['a', 'b'], { enabled: true, priorityGroups: [['p1', 'p2'], ['q']] }, keepOrder), ['x', 'p1', 'p2', 'q', 'a', 'b']);
  });
});

describe('chooseSyncers (Prebid Server chooser.go)', () => {
  it('evaluates each bidder once, in order, with its status', () => {
    const r = chooseSyncers(input({ bidders: ['a', 'a', 'unknown', 'nosync', 'c', 'c2', 'b'], hasLiveSync: (f) => f === 'b' }));
    assert.deepEqual(r.evaluated, [
      { bidder: 'a', family: 'a', status: 'ok' },
      { bidder: 'unknown', status: 'unknown-bidder' },
      { bidder: 'nosync', status: 'unconfigured-bidder' },
      { bidder: 'c', family: 'shared', status: 'ok' },
      { bidder: 'c2', family: 'shared', status: 'duplicate' },
      { bidder: 'b', family: 'b', status: 'already-synced' },
    ]);
    assert.deepEqual(
      r.chosen.map((c) => c.bidder),
      ['a', 'c'],
    );
  });

  it('stops at the limit (bidders after it are not evaluated)', () => {
    const r = chooseSyncers(input({ bidders: ['a', 'b', 'c'], limit: 2 }));
    assert.deepEqual(
      r.chosen.map((c) => c.bidder),
      ['a', 'b'],
    );
    assert.equal(r.evaluated.length, 2);
  });

  it('rejects by filter before the cookie and privacy, and blocks by privacy', () => {
    const r = chooseSyncers(
      input({
        bidders: ['fr', 'a', 'b'],
        filter: { iframe: bidderFilter('exclude', '*'), redirect: ALLOW_ALL_FILTER },
        privacy: { activityAllows: (b) => b !== 'a', regulationsAllow: (b) => b !== 'b' },
      }),
    );
    assert.deepEqual(
      r.evaluated.map((e) => e.status),
      ['rejected-by-filter', 'blocked-by-privacy', 'blocked-by-privacy'],
    );
    assert.equal(r.chosen.length, 0);
  });

  it('cooperative sync adds priority groups and the other bidders up to the limit', () => {
    const r = chooseSyncers(input({ bidders: ['b'], cooperative: { enabled: true, priorityGroups: [['fr']] }, limit: 3 }));
    assert.deepEqual(
      r.chosen.map((c) => c.bidder),
      ['b', 'fr', 'a'],
    );
  });
});
