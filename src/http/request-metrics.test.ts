import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import type { Logger } from '../core/logger.js';
import { createPrometheusMetrics } from '../metrics/prometheus.js';
import { createRequestMetrics } from './request-metrics.js';

/** A logger that keeps its warnings. */
const warningsLogger = (): Logger & { warnings: unknown[] } => {
  const warnings: unknown[] = [];
  const none = (): void => undefined;
  const logger = { warnings, fatal: none, error: none, warn: (obj: unknown) => void warnings.push(obj), info: none, debug: none, trace: none, child: () => logger };
  return logger;
};

describe('request metrics', () => {
  it('warns of a request slower than slow_request_ms, and of no other', () => {
    const logger = warningsLogger();
    const record = createRequestMetrics({ metrics: createPrometheusMetrics({ processMetrics: false }), logger, slowRequestMs: 10 }).forRoute('/a', 'GET');
    record(200, 3);
    record(200, 10);
    assert.deepEqual(logger.warnings, []);
    record(404, 10.4);
    assert.deepEqual(logger.warnings, [{ route: '/a', method: 'GET', status: 404, ms: 10 }]);
  });

  it('with slow_request_ms 0 warns of nothing', () => {
    const logger = warningsLogger();
    const record = createRequestMetrics({ metrics: createPrometheusMetrics({ processMetrics: false }), logger, slowRequestMs: 0 }).forRoute('/a', 'GET');
    record(200, 60_000);
    assert.deepEqual(logger.warnings, []);
  });

  it('counts requests by route, method and status, and their durations', async () => {
    const metrics = createPrometheusMetrics({ processMetrics: false });
    const requests = createRequestMetrics({ metrics, logger: warningsLogger(), slowRequestMs: 0 });
    const get = requests.forRoute('/a', 'GET');
    get(200, 1);
    get(200, 2);
    get(404, 1);
    requests.forRoute('/a', 'POST')(200, 1);
    const { body } = await metrics.render();
    assert.match(body, /openbid_http_requests_total\{route="\/a",method="GET",status="200"\} 2/);
    assert.match(body, /openbid_http_requests_total\{route="\/a",method="GET",status="404"\} 1/);
    assert.match(body, /openbid_http_requests_total\{route="\/a",method="POST",status="200"\} 1/);
    assert.match(body, /openbid_http_request_duration_seconds_count\{route="\/a",method="GET"\} 3/);
  });
});
