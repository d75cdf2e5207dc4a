import { AggregatorRegistry } from 'prom-client';
import type { Logger } from '../core/logger.js';
import { asClusterMetricsMessage } from './cluster-messages.js';
import { singleFlight } from './single-flight.js';
import type { ClusterMetricsMessage } from './cluster-messages.js';
import type { MetricFamilySnapshot } from './metrics.js';

/** One worker as the primary sees it (node:cluster's `Worker` fits). */
export interface WorkerHandle {
  readonly id: number;
  readonly process: { readonly pid?: number | undefined };
  isConnected(): boolean;
  send(message: ClusterMetricsMessage): boolean;
}

/** The primary's view of its workers (node:cluster's `cluster` fits). */
export interface WorkerGroup {
  readonly workers?: NodeJS.Dict<WorkerHandle> | undefined;
  on(event: 'message', listener: (worker: WorkerHandle, message: unknown) => void): unknown;
  off(event: 'message', listener: (worker: WorkerHandle, message: unknown) => void): unknown;
}

/**
 * The cluster primary's side of cluster-wide metrics: when a worker asks (its `/metrics` was
 * scraped), collects every connected worker's values, adds them up with prom-client's
 * `AggregatorRegistry.aggregate` (counters and histograms summed; gauges by their
 * `clusterAggregate`, prom-client's process gauges by its choice: memory and CPU summed,
 * event-loop lag averaged) and answers the text. A worker that has not answered within
 * `timeoutMs` is left out of that scrape, logged, and counted in
 * `openbid_cluster_metrics_workers_missed_total`; `openbid_cluster_metrics_workers` says how many
 * were in it.
 *
 * Single-flight: while one gathering runs, every request that arrives (from any worker) waits for
 * that one and gets its text, so concurrent scrapes cost one gathering, not one each. (Gathered
 * one per scrape, 100 parallel scrapes queued 100 collects on every worker and 100 aggregations
 * here: the later ones missed the workers' deadline and answered 500, or left a worker out.) A
 * request's values are then at most one gathering older than the request. `close` stops listening.
 */
export const serveClusterMetrics = (opts: { group: WorkerGroup; timeoutMs: number; logger: Logger }): { close(): void } => {
  const { group, timeoutMs, logger } = opts;
  const gathering = new Map<number, (worker: WorkerHandle, families: MetricFamilySnapshot[] | undefined) => void>();
  let nextId = 0;
  let missedTotal = 0;

  /** Every connected worker's families; those who fail or have not answered by `timeoutMs` are `missed`. */
  const gather = (): Promise<{ families: MetricFamilySnapshot[][]; missed: WorkerHandle[] }> => {
    const id = nextId++;
    const asked = Object.values(group.workers ?? {}).filter((w): w is WorkerHandle => w !== undefined && w.isConnected());
    const waitingFor = new Map(asked.map((w) => [w.id, w]));
    const failed: WorkerHandle[] = [];
    const families: MetricFamilySnapshot[][] = [];
    return new Promise((resolve) => {
      const finish = (): void => {
        clearTimeout(timer);
        gathering.delete(id);
        resolve({ families, missed: [...failed, ...waitingFor.values()] });
      };
      const timer = setTimeout(finish, timeoutMs);
      const answered = (worker: WorkerHandle, answer: MetricFamilySnapshot[] | undefined): void => {
        if (!waitingFor.delete(worker.id)) return;
        if (answer === undefined) failed.push(worker);
        else families.push(answer);
        if (waitingFor.size === 0) finish();
      };
      gathering.set(id, answered);
      for (const w of asked) {
        try {
          w.send({ kind: 'openbid:metrics:collect', id });
        } catch {
          // It disconnected between the check and the send.
          answered(w, undefined);
        }
      }
      if (asked.length === 0) finish();
    });
  };

  /** The group's text: the workers' sums and, from the primary, how many were in it. */
  const aggregate = async (): Promise<{ contentType: string; body: string }> => {
    const { families, missed } = await gather();
    if (missed.length > 0) {
      missedTotal += missed.length;
      logger.warn({ pids: missed.map((w) => w.process.pid), timeoutMs }, 'metrics: workers did not answer in time and are left out of this scrape');
    }
    const own: MetricFamilySnapshot[] = [
      {
        name: 'openbid_cluster_metrics_workers',
        help: 'Workers whose metrics are in this scrape.',
        type: 'gauge',
        aggregator: 'sum',
        values: [{ value: families.length, labels: {} }],
      },
      {
        name: 'openbid_cluster_metrics_workers_missed_total',
        help: 'Workers left out of a scrape because they did not answer within metrics.cluster_timeout_ms.',
        type: 'counter',
        aggregator: 'sum',
        values: [{ value: missedTotal, labels: {} }],
      },
    ];
    const registry = AggregatorRegistry.aggregate([...families, own]);
    return { contentType: registry.contentType, body: await registry.metrics() };
  };

  const reply = (worker: WorkerHandle, message: ClusterMetricsMessage): void => {
    try {
      if (worker.isConnected()) worker.send(message);
    } catch {
      // The worker that asked has gone; nobody is waiting for the answer.
    }
  };

  /** The gathering in flight, which every request arriving meanwhile shares. */
  const sharedAggregate = singleFlight(aggregate);

  const onMessage = (worker: WorkerHandle, value: unknown): void => {
    const message = asClusterMetricsMessage(value);
    if (message === undefined) return;
    if (message.kind === 'openbid:metrics:collected') gathering.get(message.id)?.(worker, message.families);
    else if (message.kind === 'openbid:metrics:failed') gathering.get(message.id)?.(worker, undefined);
    else if (message.kind === 'openbid:metrics:request') {
      sharedAggregate().then(
        (text) => reply(worker, { kind: 'openbid:metrics:aggregate', id: message.id, ...text }),
        (err: unknown) => {
          logger.error({ err }, 'metrics: cannot aggregate the workers\' metrics');
          reply(worker, { kind: 'openbid:metrics:failed', id: message.id, error: String(err) });
        },
      );
    }
  };
  group.on('message', onMessage);
  return { close: () => void group.off('message', onMessage) };
};
