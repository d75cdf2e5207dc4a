import { asClusterMetricsMessage } from './cluster-messages.js';
import { singleFlight } from './single-flight.js';
import type { ClusterMetricsMessage } from './cluster-messages.js';
import type { Metrics, SnapshotMetrics } from './metrics.js';

/** A cluster worker's IPC channel to its primary: `process` in a worker. */
export interface PrimaryChannel {
  send(message: ClusterMetricsMessage): void;
  on(event: 'message', listener: (message: unknown) => void): unknown;
  off(event: 'message', listener: (message: unknown) => void): unknown;
}

/**
 * A cluster worker's metrics: instruments record into `local` as before, `local`'s values are
 * sent to the primary whenever it collects them, and `render` (what `/metrics` serves) answers
 * the whole process group's text, which it asks the primary for. It rejects when the primary
 * does not answer within `waitMs` (the primary's own deadline plus a margin): a failed scrape,
 * which Prometheus records as such, is better than one worker's counters passed off as the
 * group's (they would look like a counter reset). Single-flight: scrapes that arrive while this
 * worker waits for the primary share that answer, so one worker has at most one request out.
 * `close` stops listening.
 */
export const createClusterWorkerMetrics = (local: SnapshotMetrics, opts: { channel: PrimaryChannel; waitMs: number }): Metrics & { close(): void } => {
  const { channel, waitMs } = opts;
  const waiting = new Map<number, (answer: ClusterMetricsMessage) => void>();
  let nextId = 0;

  const onMessage = (value: unknown): void => {
    const message = asClusterMetricsMessage(value);
    if (message === undefined) return;
    if (message.kind === 'openbid:metrics:collect') {
      local.snapshot().then(
        (families) => channel.send({ kind: 'openbid:metrics:collected', id: message.id, families }),
        (err: unknown) => channel.send({ kind: 'openbid:metrics:failed', id: message.id, error: String(err) }),
      );
    } else if (message.kind === 'openbid:metrics:aggregate' || message.kind === 'openbid:metrics:failed') {
      waiting.get(message.id)?.(message);
    }
  };
  channel.on('message', onMessage);

  const ask = (): Promise<{ contentType: string; body: string }> => {
    const id = nextId++;
    return new Promise((resolve, reject) => {
      const timer = setTimeout(() => settle({ kind: 'openbid:metrics:failed', id, error: `the cluster primary did not answer within ${waitMs} ms` }), waitMs);
      const settle = (answer: ClusterMetricsMessage): void => {
        clearTimeout(timer);
        waiting.delete(id);
        if (answer.kind === 'openbid:metrics:aggregate') resolve({ contentType: answer.contentType, body: answer.body });
        else reject(new Error(answer.kind === 'openbid:metrics:failed' ? answer.error : 'unexpected answer'));
      };
      waiting.set(id, settle);
      channel.send({ kind: 'openbid:metrics:request', id });
    });
  };

  const render = singleFlight(ask);

  return {
    counter: (def) => local.counter(def),
    histogram: (def) => local.histogram(def),
    gauge: (def) => local.gauge(def),
    render,
    close: () => void channel.off('message', onMessage),
  };
};
