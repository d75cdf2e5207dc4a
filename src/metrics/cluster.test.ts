import assert from 'node:assert/strict';
import { EventEmitter } from 'node:events';
import { describe, it } from 'node:test';
import pino from 'pino';
import type { ClusterMetricsMessage } from './cluster-messages.js';
import { serveClusterMetrics } from './cluster-primary.js';
import type { WorkerHandle } from './cluster-primary.js';
import { createClusterWorkerMetrics } from './cluster-worker.js';
import { createPrometheusMetrics } from './prometheus.js';

/** A primary and `n` workers joined by in-memory channels; `mute` workers never answer a collect. */
const cluster = (n: number, mute: ReadonlySet<number> = new Set()) => {
  const group = new EventEmitter();
  const workers: Record<number, WorkerHandle> = {};
  const apps = [];
  for (let id = 1; id <= n; id++) {
    const toWorker = new EventEmitter();
    const handle: WorkerHandle = {
      id,
      process: { pid: 1000 + id },
      isConnected: () => true,
      send: (m: ClusterMetricsMessage) => (mute.has(id) && m.kind === 'openbid:metrics:collect' ? true : setImmediate(() => toWorker.emit('message', m)) !== undefined),
    };
    workers[id] = handle;
    const channel = {
      send: (m: ClusterMetricsMessage) => void setImmediate(() => group.emit('message', handle, m)),
      on: (e: 'message', l: (m: unknown) => void) => toWorker.on(e, l),
      off: (e: 'message', l: (m: unknown) => void) => toWorker.off(e, l),
    };
    apps.push(createClusterWorkerMetrics(createPrometheusMetrics({ processMetrics: false }), { channel, waitMs: 2000 }));
  }
  const logged: string[] = [];
  const logger = pino({ level: 'warn' }, { write: (line: string) => void logged.push(line) });
  const primary = serveClusterMetrics({ group: Object.assign(group, { workers }), timeoutMs: 100, logger });
  return { apps, primary, logged };
};

describe('cluster-wide metrics', () => {
  it('sums counters and histograms of every worker, and gauges by their aggregate', async () => {
    const { apps, primary } = cluster(3);
    apps.forEach((app, i) => {
      app.counter({ name: 'openbid_things_total', help: 'Things.', labelNames: ['kind'] }).inc({ kind: 'a' }, i + 1);
      app.histogram({ name: 'openbid_took_seconds', help: 'Took.', labelNames: [], buckets: [1] }).observe({}, i);
      app.gauge({ name: 'openbid_oldest', help: 'Oldest.', labelNames: [], clusterAggregate: 'min' }).set({}, 10 + i);
    });
    const { body } = await (apps[1]?.render() ?? Promise.reject(new Error('no worker')));
    assert.match(body, /^openbid_things_total\{kind="a"\} 6$/m);
    assert.match(body, /^openbid_took_seconds_bucket\{le="1"\} 2$/m);
    assert.match(body, /^openbid_took_seconds_bucket\{le="\+Inf"\} 3$/m);
    assert.match(body, /^openbid_took_seconds_sum 3$/m);
    assert.match(body, /^openbid_took_seconds_count 3$/m);
    assert.match(body, /^openbid_oldest 10$/m);
    assert.match(body, /^openbid_cluster_metrics_workers 3$/m);
    primary.close();
    apps.forEach((a) => a.close());
  });

  it('leaves out a worker that does not answer in time, and counts and logs it', async () => {
    const { apps, primary, logged } = cluster(2, new Set([2]));
    apps.forEach((app) => app.counter({ name: 'openbid_things_total', help: 'Things.', labelNames: [] }).inc({}));
    const started = Date.now();
    const { body } = await (apps[0]?.render() ?? Promise.reject(new Error('no worker')));
    assert.ok(Date.now() - started < 1000, 'the scrape waited past the primary timeout');
    assert.match(body, /^openbid_things_total 1$/m);
    assert.match(body, /^openbid_cluster_metrics_workers 1$/m);
    assert.match(body, /^openbid_cluster_metrics_workers_missed_total 1$/m);
    assert.match(logged.join(""), /"pids":\[1002\].*left out of this scrape/);
    primary.close();
    apps.forEach((a) => a.close());
  });

  it('fails the scrape when the primary does not answer', async () => {
    const silent = { send: () => undefined, on: () => undefined, off: () => undefined };
    const app = createClusterWorkerMetrics(createPrometheusMetrics({ processMetrics: false }), { channel: silent, waitMs: 50 });
    await assert.rejects(app.render(), /did not answer within 50 ms/);
    app.close();
  });
});
