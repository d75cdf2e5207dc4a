import type { Logger } from '../core/logger.js';
import type { BoundCounter, Metrics } from '../metrics/metrics.js';

/** Records one finished request of a route: its status and how long it took. */
export type RequestRecorder = (status: number, ms: number) => void;

export interface RequestMetrics {
  /**
   * The recorder of a route pattern (never a raw URL, so series stay bounded) and method. Bind
   * it once per route: recording then costs a lookup by numeric status, no label strings.
   */
  forRoute(route: string, method: string): RequestRecorder;
}

/**
 * Request counts by route, method and status, durations by route and method, and a warning for
 * each request slower than `slowRequestMs` (0 turns it off). Shared by Fastify and the lanes,
 * so all feed the same series.
 */
export const createRequestMetrics = (opts: { metrics: Metrics; logger: Logger; slowRequestMs: number }): RequestMetrics => {
  const requests = opts.metrics.counter({
    name: 'openbid_http_requests_total',
    help: 'HTTP requests by route, method and status.',
    labelNames: ['route', 'method', 'status'],
  });
  const durations = opts.metrics.histogram({
    name: 'openbid_http_request_duration_seconds',
    help: 'HTTP request durations by route and method.',
    labelNames: ['route', 'method'],
  });
  const { logger, slowRequestMs } = opts;
  return {
    forRoute: (route, method) => {
      const timer = durations.with({ route, method });
      const byStatus = new Map<number, BoundCounter>();
      return (status, ms) => {
        let counter = byStatus.get(status);
        if (counter === undefined) byStatus.set(status, (counter = requests.with({ route, method, status: String(status) })));
        counter.inc();
        timer.observe(ms / 1000);
        if (slowRequestMs > 0 && ms > slowRequestMs) logger.warn({ route, method, status, ms: Math.round(ms) }, 'slow request');
      };
    },
  };
};
