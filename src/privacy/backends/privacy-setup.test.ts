import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { loadConfig } from '../../config/load.js';
import { silentLogger } from '../../core/logger.js';
import type { Logger } from '../../core/logger.js';
import { accountSettingsProblems } from '../../stored/account-schema.js';
import { allConsent, VENDOR_LIST_FILE } from '../../../test/support/consent-strings.js';
import { createPrivacyFromConfig } from './privacy-setup.js';

const warnings: string[] = [];
const recording: Logger = { ...silentLogger, warn: (_o, msg) => void warnings.push(String(msg)), child: () => recording };
const run = async (raw: Record<string, unknown>, consent: string) => {
  const privacy = await createPrivacyFromConfig(loadConfig({ raw }).privacy, { clock: { now: () => 0 }, logger: recording });
  const p = await privacy.enforcer.begin({ id: 'r', imp: [{ id: '1' }], regs: { gdpr: 1 }, user: { consent } }, { channel: 'web', gpc: false, account: undefined, maxWaitMs: 100 });
  await privacy.close();
  return p.bidder({ code: 'a', gvlVendorId: 10 }).allowed;
};

describe('privacy configuration', () => {
  it('has Prebid Server’s defaults', () => {
    const c = loadConfig({ raw: {} }).privacy;
    assert.equal(c.gdpr.enabled, true);
    assert.equal(c.gdpr.default_value, 0);
    assert.equal(c.gdpr.enforce_algo, 'full');
    assert.equal(c.ccpa.enforce, true);
    assert.equal(c.ipv4.anon_keep_bits, 24);
    assert.equal(c.ipv6.anon_keep_bits, 56);
    assert.deepEqual(c.allowactivities, {});
  });

  it('refuses a misspelt activity or a bad switch', () => {
    assert.throws(() => loadConfig({ raw: { privacy: { allowactivities: { fetchBid: { default: false } } } } }), /fetchBid/);
    assert.throws(() => loadConfig({ raw: { privacy: { gdpr: { default_value: 2 } } } }), /default_value/);
  });

  it('checks account privacy overrides, naming each problem', () => {
    assert.deepEqual(accountSettingsProblems({ privacy: { gdpr: { channel_enabled: { amp: false } }, allowactivities: { fetchBids: { rules: [{ condition: { componentName: ['x'], gppSid: [7] }, allow: false }] } } } }), []);
    const problems = accountSettingsProblems({ privacy: { gdpr: { enabled: 'yes' }, ccpa: { enforce: true } } });
    assert.ok(problems.some((p) => p.startsWith('privacy.gdpr.enabled')), problems.join('; '));
    assert.ok(problems.some((p) => p.includes('enforce')), problems.join('; '));
  });

  it('reads the vendor list file: full enforcement calls a consented vendor', async () => {
    assert.equal(await run({ privacy: { gdpr: { vendor_list: { file: VENDOR_LIST_FILE } } } }, allConsent()), true);
  });

  it('without a vendor list: bidders are blocked where GDPR applies, and the start-up log says so', async () => {
    warnings.length = 0;
    assert.equal(await run({}, allConsent()), false);
    assert.ok(warnings.some((w) => w.includes('no GDPR vendor list is configured')));
  });

  it('basic enforcement needs no list', async () => {
    assert.equal(await run({ privacy: { gdpr: { enforce_algo: 'basic' } } }, allConsent()), true);
  });
});
