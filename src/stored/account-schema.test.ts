import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { accountSettingsProblems, DEFAULT_ACCOUNT_SETTINGS, isAccountSettings } from './account-schema.js';

describe('account schema', () => {
  it('has a default for every setting', () => {
    assert.deepEqual(DEFAULT_ACCOUNT_SETTINGS, {
      events: { enabled: true },
      auction: { price_granularity: 'medium', banner_cache_ttl_seconds: 300, video_cache_ttl_seconds: 1500, debug_allow: true, targeting_prefix: '' },
      cookie_sync: { default_limit: 0, max_limit: 0, default_coop_sync: null, priority_groups: [] },
      privacy: {},
    });
    assert.ok(Object.isFrozen(DEFAULT_ACCOUNT_SETTINGS.auction));
  });

  it('accepts any subset of the settings, at any depth', () => {
    for (const ok of [
      {},
      { events: {} },
      { events: { enabled: false } },
      { auction: { price_granularity: 'dense' } },
      { auction: { price_granularity: { precision: 2, ranges: [{ max: 5, increment: 0.05 }, { min: 5, max: 20, increment: 0.5 }] } } },
      { privacy: { gdpr: { enabled: false } } },
    ]) {
      assert.deepEqual(accountSettingsProblems(ok), [], JSON.stringify(ok));
      assert.ok(isAccountSettings(ok));
    }
  });

  it('names every problem, each setting on its own', () => {
    const problems = accountSettingsProblems({
      zzz: 1,
      events: { enabled: 'no' },
      auction: { price_granularity: 'bogus', banner_cache_ttl_seconds: -1, video_cache_ttl_seconds: 1.5, debug_allow: null, targeting_prefix: 3, foo: 1 },
      privacy: [],
    });
    assert.deepEqual(problems, [
      '(root): unknown key zzz',
      'events.enabled: must be boolean',
      'auction: unknown key foo',
      'auction.price_granularity: must be one of low, medium, med, high, auto, dense, or an object with ranges',
      'auction.banner_cache_ttl_seconds: must be >= 0',
      'auction.video_cache_ttl_seconds: must be integer',
      'auction.debug_allow: must be boolean',
      'auction.targeting_prefix: must be string',
      'privacy: must be object',
    ]);
  });

  it('names every problem however many unknown keys come with them (eight hid everything, and read as valid)', () => {
    const privacy: Record<string, unknown> = { gdpr: { enabled: 'maybe' } };
    for (let i = 0; i < 12; i++) privacy[`k${i}`] = i;
    const problems = accountSettingsProblems({ privacy });
    assert.deepEqual(problems, [`privacy: unknown keys ${Object.keys(privacy).slice(1).join(', ')}`, 'privacy.gdpr.enabled: must be boolean']);
    assert.ok(!isAccountSettings({ privacy }));
  });

  it('looks inside a custom price granularity', () => {
    assert.deepEqual(accountSettingsProblems({ auction: { price_granularity: { precision: 1.5, ranges: [{ max: 1, increment: 0, x: 1 }] } } }), [
      'auction.price_granularity.precision: must be integer',
      'auction.price_granularity.ranges.0: unknown key x',
      'auction.price_granularity.ranges.0.increment: must be > 0',
    ]);
    assert.deepEqual(accountSettingsProblems({ auction: { price_granularity: { ranges: [] } } }), ['auction.price_granularity.ranges: must not have fewer than 1 items']);
  });

  it('refuses what is not an object', () => {
    for (const bad of [null, [], 'x', 3]) assert.deepEqual(accountSettingsProblems(bad), ['(root): must be object']);
    assert.deepEqual(accountSettingsProblems({ events: 3 }), ['events: must be object']);
    assert.equal(isAccountSettings({ events: 3 }), false);
  });
});
