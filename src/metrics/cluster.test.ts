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
  const collects = new Map<number, number>();
  for (let id = 1; id <= n; id++) {
    const toWorker = new EventEmitter();
    const handle: WorkerHandle = {
      id,
      process: { pid: 1000 + id },
      isConnected: () => true,
      send: (m: ClusterMetricsMessage) => {
        if (m.kind === 'openbid:metrics:collect') collects.set(id, (collects.get(id) ?? 0) + 1);
        return mute.has(id) && m.kind === 'openbid:metrics:collect' ? true : setImmediate(() => toWorker.emit('message', m)) !== undefined;
      },
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
  return { apps, primary, logged, collects };
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

  it('serves 100 concurrent scrapes with one gathering: one collect per worker, every answer the whole group', async () => {
    const { apps, primary, collects } = cluster(2);
    apps.forEach((app, i) => app.counter({ name: 'openbid_things_total', help: 'Things.', labelNames: [] }).inc({}, i + 1));
    const answers = await Promise.all(Array.from({ length: 100 }, (_, i) => apps[i % 2]!.render()));
    assert.deepEqual([...collects], [[1, 1], [2, 1]], 'one gathering for the burst');
    for (const { body } of answers) {
      assert.match(body, /^openbid_things_total 3$/m);
      assert.match(body, /^openbid_cluster_metrics_workers 2$/m);
    }
    // Settled, it is not kept: the next scrape gathers again, with the values of now.
    apps[0]!.counter({ name: 'openbid_things_total', help: 'Things.', labelNames: [] }).inc({});
    assert.match((await apps[1]!.render()).body, /^openbid_things_total 4$/m);
    assert.deepEqual([...collects], [[1, 2], [2, 2]]);
    primary.close();
    apps.forEach((a) => a.close());
  });

  it('fails the scrape when the primary does not answer', async () => {
    const silent = { send: () => undefined, on: () => undefined, off: () => undefined };
    const app = createClusterWorkerMetrics(createPrometheusMetrics({ processMetrics: false }), { channel: silent, waitMs: 50 });
    await assert.rejects(Promise.all([app.render(), app.render()]), /did not answer within 50 ms/);
    // A failure is not kept either: the next scrape asks again.
    const sent: unknown[] = [];
    const counting = { send: (m: unknown) => void sent.push(m), on: () => undefined, off: () => undefined };
    const other = createClusterWorkerMetrics(createPrometheusMetrics({ processMetrics: false }), { channel: counting, waitMs: 20 });
    await assert.rejects(Promise.all([other.render(), other.render()]));
    await assert.rejects(other.render());
    assert.equal(sent.length, 2);
    other.close();
    app.close();
  });
});
