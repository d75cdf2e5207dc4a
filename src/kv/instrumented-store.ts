import { isAppError } from '../core/app-error.js';
import { throttledLog } from '../core/log-throttle.js';
import type { Logger } from '../core/logger.js';
import type { Metrics } from '../metrics/metrics.js';
import type { MaybePromise } from '../core/maybe-promise.js';
import type { KeyValueStore } from './key-value-store.js';

/**
 * Wraps a store with latency and error metrics, and rate-limited error logs. Behaviour of the
 * inner store is unchanged: results and rejections pass through as they are.
 */
export const instrumentStore = (inner: KeyValueStore, opts: { metrics: Metrics; logger: Logger; name: string }): KeyValueStore => {
  const duration = opts.metrics.histogram({
    name: 'openbid_store_call_duration_seconds',
    help: 'Latency of key/value store calls, by store and operation.',
    labelNames: ['store', 'op'],
  });
  const errors = opts.metrics.counter({
    name: 'openbid_store_errors_total',
    help: 'Failed key/value store calls, by store, operation and reason (timeout or failure).',
    labelNames: ['store', 'op', 'reason'],
  });
  const store = opts.name;
  const timers = { get: duration.with({ store, op: 'get' }), put: duration.with({ store, op: 'put' }), delete: duration.with({ store, op: 'delete' }) };
  const logFailure = throttledLog();

  const failed = (op: 'get' | 'put' | 'delete', err: unknown): void => {
    const reason = isAppError(err) && err.code === 'BACKEND_TIMEOUT' ? 'timeout' : 'failure';
    errors.inc({ store, op, reason });
    logFailure((suppressed) => opts.logger.error({ err, store, op, suppressed }, 'store call failed'));
  };

  // Not async: on a Redis GET /cache hit each promise layer costs a microtask turn.
  const timed = <T>(op: 'get' | 'put' | 'delete', call: () => MaybePromise<T>): Promise<T> => {
    const start = performance.now();
    const observe = (): void => timers[op].observe((performance.now() - start) / 1000);
    let result: MaybePromise<T>;
    try {
      result = call();
    } catch (err) {
      failed(op, err);
      observe();
      return Promise.reject(err instanceof Error ? err : new Error(String(err)));
    }
    return Promise.resolve(result).then(
      (v) => {
        observe();
        return v;
      },
      (err: unknown) => {
        failed(op, err);
        observe();
        throw err;
      },
    );
  };

  return {
    kind: inner.kind,
    copiesOnPut: inner.copiesOnPut,
    get: (key) => timed('get', () => inner.get(key)),
    putMany: (entries, o) => timed('put', () => inner.putMany(entries, o)),
    delete: (keys) => timed('delete', () => inner.delete(keys)),
    close: () => inner.close(),
  };
};
