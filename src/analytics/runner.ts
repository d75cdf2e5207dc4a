import { throttledLog } from '../core/log-throttle.js';
import type { Logger } from '../core/logger.js';
import type { Metrics } from '../metrics/metrics.js';
import type { AnalyticsModule, AnalyticsRecord, RecordCounters } from './analytics-module.js';
import { boundedRecord } from './bounded-record.js';

/** What request handlers talk to: one call, every enabled module. */
export interface Analytics {
  /** Hands the record to every module, or only to those `allow` accepts by name (privacy may refuse some). */
  logEvent(record: AnalyticsRecord, allow?: (module: string) => boolean): void;
  /** Closes every module (each flushes what it holds). */
  close(): Promise<void>;
}

const records = (metrics: Metrics) =>
  metrics.counter({
    name: 'openbid_analytics_records_total',
    help: 'Analytics records by module and result (written, dropped, failed: the module threw).',
    labelNames: ['module', 'result'],
  });

/** The counters a module reports through, bound to its name. */
export const recordCounters = (metrics: Metrics, module: string): RecordCounters => {
  const counter = records(metrics);
  const written = counter.with({ module, result: 'written' });
  const dropped = counter.with({ module, result: 'dropped' });
  return { written: (n = 1) => written.inc(n), dropped: (n = 1) => dropped.inc(n) };
};

/**
 * Fans each record out to every module, its strings bounded first (`boundedRecord`: the one
 * place a request's ids meet every module). Never throws into the caller and never waits: a module
 * that throws is counted (`failed`) and logged at most every 5 s, and the others still get the
 * record.
 */
export const createAnalyticsRunner = (modules: readonly AnalyticsModule[], opts: { metrics: Metrics; logger: Logger }): Analytics => {
  const failed = new Map(modules.map((m) => [m, records(opts.metrics).with({ module: m.name, result: 'failed' })]));
  const logFailure = throttledLog();
  return {
    logEvent(taken, allow) {
      if (modules.length === 0) return;
      const record = boundedRecord(taken);
      for (const m of modules) {
        if (allow !== undefined && !allow(m.name)) continue;
        try {
          m.logEvent(record);
        } catch (err) {
          failed.get(m)?.inc();
          logFailure((suppressed) => opts.logger.error({ err, module: m.name, suppressed }, 'analytics module failed'));
        }
      }
    },
    close: async () => {
      await Promise.all(modules.map((m) => m.close()));
    },
  };
};
