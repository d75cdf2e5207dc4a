import type { AnalyticsModuleFactory } from '../../module-factory.js';

/** `analytics.http`, as the configuration has it. */
export interface HttpAnalyticsSection {
  /** Empty turns the module off. */
  readonly endpoint: string;
  readonly batch_size: number;
  readonly flush_interval_ms: number;
  readonly max_queue_size: number;
  readonly timeout_ms: number;
  readonly max_retries: number;
  readonly retry_backoff_ms: number;
}

/** `http`: JSON batches POSTed to `endpoint`, retried, from a bounded queue. */
export const httpAnalytics: AnalyticsModuleFactory<HttpAnalyticsSection> = async (section, { logger, counters, shutdownTimeoutMs }) => {
  if (section.endpoint === '') return undefined;
  // Loaded only when configured, like the Redis client: an HTTP client library is MiBs of heap.
  const { createHttpModule } = await import('./http-module.js');
  return createHttpModule({
    endpoint: section.endpoint,
    batchSize: section.batch_size,
    flushIntervalMs: section.flush_interval_ms,
    maxQueueSize: section.max_queue_size,
    timeoutMs: section.timeout_ms,
    maxRetries: section.max_retries,
    retryBackoffMs: section.retry_backoff_ms,
    // Half the shutdown budget: the rest is for in-flight requests and the stores.
    closeDeadlineMs: Math.max(100, Math.floor(shutdownTimeoutMs / 2)),
    counters,
    logger: logger.child({ component: 'analytics-http' }),
  });
};
