import assert from 'node:assert/strict';
import { mkdtempSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, it } from 'node:test';
import { PROTOTYPE_KEYS } from '../../test/support/prototype-keys.js';
import { silentLogger } from '../core/logger.js';
import { createPrometheusMetrics } from '../metrics/prometheus.js';
import type { EventRecord } from './analytics-module.js';
import { openAnalyticsModules } from './module-factory.js';
import type { AnalyticsModuleRegistry } from './module-factory.js';
import { BUILTIN_ANALYTICS_MODULES } from './modules/builtin.js';
import type { BuiltinAnalyticsSections } from './modules/builtin.js';

const off: BuiltinAnalyticsSections = {
  file: { path: '', flush_interval_ms: 1000, max_buffer_bytes: 1 << 20 },
  http: { endpoint: '', batch_size: 1, flush_interval_ms: 1000, max_queue_size: 10, timeout_ms: 100, max_retries: 0, retry_backoff_ms: 1 },
  log: { enabled: false },
};
const deps = () => ({ logger: silentLogger, metrics: createPrometheusMetrics({ processMetrics: false }), shutdownTimeoutMs: 1000 });
const record: EventRecord = { kind: 'event', type: 'win', account: 'a', bidId: 'b', bidder: 'x', receivedAt: 1 };

describe('analytics module registry', () => {
  it('lists the built-in modules by their configuration key, and none of Object’s names', () => {
    assert.deepEqual(Object.keys(BUILTIN_ANALYTICS_MODULES), ['file', 'http', 'log']);
    for (const name of PROTOTYPE_KEYS) assert.equal((BUILTIN_ANALYTICS_MODULES as unknown as Record<string, unknown>)[name], undefined, name);
  });

  it('opens nothing when every section leaves its module off', async () => {
    assert.deepEqual(await openAnalyticsModules(off, BUILTIN_ANALYTICS_MODULES, deps()), []);
  });

  it('opens the modules the sections turn on, in registry order, counting under their names', async () => {
    const path = join(mkdtempSync(join(tmpdir(), 'openbid-analytics-')), 'records.jsonl');
    const d = deps();
    // Sections in another order than the registry's: the registry's order wins.
    const sections = { log: { enabled: true }, http: off.http, file: { ...off.file, path } };
    const modules = await openAnalyticsModules(sections, BUILTIN_ANALYTICS_MODULES, d);
    assert.deepEqual(modules.map((m) => m.name), ['file', 'log']);
    for (const m of modules) m.logEvent(record);
    await Promise.all(modules.map((m) => m.close()));
    assert.equal((JSON.parse(readFileSync(path, 'utf8').trim()) as { bidId: string }).bidId, 'b');
    const body = (await d.metrics.render()).body;
    assert.match(body, /openbid_analytics_records_total\{module="file",result="written"\} 1/);
    assert.match(body, /openbid_analytics_records_total\{module="log",result="written"\} 1/);
  });

  it('refuses a section no module is registered for, constructor included', async () => {
    for (const name of ['constructor', '__proto__', 'kafka']) {
      const sections = Object.assign(Object.create(null) as Record<string, unknown>, off, { [name]: { enabled: true } }) as unknown as BuiltinAnalyticsSections;
      await assert.rejects(openAnalyticsModules(sections, BUILTIN_ANALYTICS_MODULES, deps()), new RegExp(`no analytics module is named "${name}"`));
    }
  });

  it('hands a factory its own section and plain dependencies', async () => {
    const seen: unknown[] = [];
    const registry: AnalyticsModuleRegistry<{ probe: { level: number } }> = Object.assign(Object.create(null) as AnalyticsModuleRegistry<{ probe: { level: number } }>, {
      probe: async (section: { level: number }, d: { shutdownTimeoutMs: number }) => {
        seen.push(section.level, d.shutdownTimeoutMs);
        return undefined;
      },
    });
    assert.deepEqual(await openAnalyticsModules({ probe: { level: 7 } }, registry, deps()), []);
    assert.deepEqual(seen, [7, 1000]);
  });
});
