import type { AnalyticsModuleFactory } from '../../module-factory.js';
import { createFileModule } from './file-module.js';

/** `analytics.file`, as the configuration has it. */
export interface FileAnalyticsSection {
  /** Empty turns the module off. */
  readonly path: string;
  readonly flush_interval_ms: number;
  readonly max_buffer_bytes: number;
}

/** `file`: JSON lines appended to `path`; a path that cannot be opened stops the start. */
export const fileAnalytics: AnalyticsModuleFactory<FileAnalyticsSection> = async (section, { logger, counters }) =>
  section.path === ''
    ? undefined
    : createFileModule({
        path: section.path,
        flushIntervalMs: section.flush_interval_ms,
        maxBufferBytes: section.max_buffer_bytes,
        counters,
        logger: logger.child({ component: 'analytics-file' }),
      });
