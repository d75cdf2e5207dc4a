import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { boundGrid } from './metrics.js';
import { createPrometheusMetrics } from './prometheus.js';

describe('prometheus metrics', () => {
  it('renders counters, gauges and cumulative histograms in the text format', async () => {
    const m = createPrometheusMetrics({ processMetrics: false });
    const c = m.counter({ name: 'openbid_things_total', help: 'Things.', labelNames: ['kind'] });
    c.inc({ kind: 'a' });
    const bound = c.with({ kind: 'b"\\\n' });
    bound.inc();
    bound.inc(2);
    const g = m.gauge({ name: 'openbid_level', help: 'Level.', labelNames: [] });
    g.set({}, 5);
    g.dec({}, 2);
    const h = m.histogram({ name: 'openbid_latency_seconds', help: 'Latency.', labelNames: ['op'], buckets: [0.1, 1] });
    const hb = h.with({ op: 'get' });
    hb.observe(0.05);
    hb.observe(0.5);
    hb.observe(7);
    const { body, contentType } = await m.render();
    assert.match(contentType, /^text\/plain/);
    assert.equal(
      body,
      [
        '# HELP openbid_things_total Things.',
        '# TYPE openbid_things_total counter',
        'openbid_things_total{kind="a"} 1',
        'openbid_things_total{kind="b\\"\\\\\\n"} 3',
        '# HELP openbid_level Level.',
        '# TYPE openbid_level gauge',
        'openbid_level 3',
        '# HELP openbid_latency_seconds Latency.',
        '# TYPE openbid_latency_seconds histogram',
        'openbid_latency_seconds_bucket{le="0.1",op="get"} 1',
        'openbid_latency_seconds_bucket{le="1",op="get"} 2',
        'openbid_latency_seconds_bucket{le="+Inf",op="get"} 3',
        'openbid_latency_seconds_sum{op="get"} 7.55',
        'openbid_latency_seconds_count{op="get"} 3',
        '',
      ].join('\n'),
    );
  });

  it('binds a grid of label values once, each cell counting its own series', async () => {
    const m = createPrometheusMetrics({ processMetrics: false });
    const c = m.counter({ name: 'openbid_ops_total', help: 'Ops.', labelNames: ['app', 'op', 'result'] });
    const grid = boundGrid(c, 'op', ['read', 'write'] as const, 'result', ['ok', 'error'] as const, { app: 'a1' });
    grid.read.ok.inc();
    grid.read.ok.inc();
    grid.write.error.inc(3);
    const { body } = await m.render();
    assert.match(body, /openbid_ops_total\{app="a1",op="read",result="ok"\} 2\n/);
    assert.match(body, /openbid_ops_total\{app="a1",op="write",result="error"\} 3\n/);
    assert.match(body, /openbid_ops_total\{app="a1",op="read",result="error"\} 0\n/);
  });

  it('returns the same instrument for the same name', () => {
    const m = createPrometheusMetrics({ processMetrics: false });
    const a = m.counter({ name: 'openbid_x_total', help: 'x', labelNames: [] });
    assert.equal(m.counter({ name: 'openbid_x_total', help: 'x', labelNames: [] }), a);
  });

  it('includes process metrics from prom-client', async () => {
    const { body } = await createPrometheusMetrics().render();
    assert.match(body, /openbid_process_cpu_seconds_total/);
    assert.match(body, /openbid_nodejs_eventloop_lag_seconds/);
  });
});
