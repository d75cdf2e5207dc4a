import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { loadConfig } from '../../config/load.js';
import { silentLogger } from '../../core/logger.js';
import { noopMetrics } from '../../metrics/noop.js';
import { createServerRatesFromConfig } from './server-rates-setup.js';
import { problemsOf } from '../../../test/support/config-problems.js';

const RATES_FILE = new URL('../../../test/fixtures/currency/rates.json', import.meta.url).pathname;

const fromConfig = (raw: Record<string, unknown>, env: Record<string, string> = {}) =>
  createServerRatesFromConfig(loadConfig({ raw, env }).auction.currency, { clock: { now: () => Date.now() }, logger: silentLogger, metrics: noopMetrics });

describe('auction.currency configuration', () => {
  it('defaults: no source (no server rates), refreshed every 30 minutes, stale after a day', async () => {
    const c = loadConfig({ raw: {} }).auction.currency;
    assert.deepEqual(c, { file: '', url: '', refresh_interval_ms: 1_800_000, fetch_timeout_ms: 5000, stale_after_ms: 86_400_000 });
    const rates = await fromConfig({});
    assert.equal(rates.current(), undefined);
    await rates.close();
  });

  it('refuses both a file and a URL, a URL that is not http(s), a misspelt key, a short interval', () => {
    assert.ok(problemsOf(() => loadConfig({ raw: { auction: { currency: { file: 'r.json', url: 'https://rates.example/r.json' } } } })).includes('auction.currency: set file or url, not both'));
    assert.ok(problemsOf(() => loadConfig({ raw: { auction: { currency: { url: 'ftp://rates.example/r.json' } } } })).some((p) => p.startsWith('auction.currency.url')));
    assert.ok(problemsOf(() => loadConfig({ raw: { auction: { currency: { url: 'http://a b/r.json' } } } })).some((p) => p.startsWith('auction.currency.url')));
    assert.ok(problemsOf(() => loadConfig({ raw: { auction: { currency: { stale_after: 1 } } } })).some((p) => p.includes('stale_after')));
    assert.ok(problemsOf(() => loadConfig({ raw: { auction: { currency: { refresh_interval_ms: 10 } } } })).some((p) => p.includes('refresh_interval_ms')));
    assert.ok(problemsOf(() => loadConfig({ raw: { auction: { currency: { stale_after_ms: -1 } } } })).some((p) => p.includes('stale_after_ms')));
  });

  it('takes environment overrides', () => {
    const c = loadConfig({ env: { OPENBID_AUCTION__CURRENCY__URL: 'https://rates.example/latest.json', OPENBID_AUCTION__CURRENCY__STALE_AFTER_MS: '0' } }).auction.currency;
    assert.equal(c.url, 'https://rates.example/latest.json');
    assert.equal(c.stale_after_ms, 0);
  });

  it('reads the file before it resolves', async () => {
    const rates = await fromConfig({}, { OPENBID_AUCTION__CURRENCY__FILE: RATES_FILE });
    assert.equal(rates.current()?.USD?.EUR, 0.5);
    await rates.close();
  });

  it('starts without rates when the file cannot be read', async () => {
    const rates = await fromConfig({ auction: { currency: { file: '/nonexistent/rates.json' } } });
    assert.equal(rates.current(), undefined);
    await rates.close();
  });
});
