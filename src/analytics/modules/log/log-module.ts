import type { Logger } from '../../../core/logger.js';
import type { AnalyticsModule, RecordCounters } from '../../analytics-module.js';

/** Writes each record to the server log at info level (pino buffers and writes asynchronously). */
export const createLogModule = (opts: { logger: Logger; counters: RecordCounters }): AnalyticsModule => ({
  name: 'log',
  logEvent(record) {
    opts.logger.info({ analytics: record }, 'analytics record');
    opts.counters.written();
  },
  close: async () => undefined,
});
