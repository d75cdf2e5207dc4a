import { Agent, request } from 'undici';
import { throttledLog } from '../../../core/log-throttle.js';
import type { Logger } from '../../../core/logger.js';
import type { AnalyticsModule, AnalyticsRecord, RecordCounters } from '../../analytics-module.js';
import { recordJson } from '../../record-json.js';

export interface HttpModuleOptions {
  readonly endpoint: string;
  readonly batchSize: number;
  readonly flushIntervalMs: number;
  readonly maxQueueSize: number;
  readonly timeoutMs: number;
  readonly maxRetries: number;
  readonly retryBackoffMs: number;
  /** How long `close` may spend sending what is left. */
  readonly closeDeadlineMs: number;
  readonly counters: RecordCounters;
  readonly logger: Logger;
}

const MAX_BACKOFF_MS = 30_000;

/** Statuses worth another try: the endpoint is overloaded or briefly away, not refusing the data. */
const retryable = (status: number): boolean => status >= 500 || status === 408 || status === 429;

/**
 * POSTs records as JSON arrays of up to `batchSize` to an endpoint, one batch at a time, when a
 * batch is full or every `flushIntervalMs`. A failed batch (network error, timeout, 5xx, 408, 429)
 * is retried with exponential backoff and jitter, `maxRetries` times, then dropped; a batch the
 * endpoint refuses (other 4xx) is dropped at once. The queue is bounded: records beyond
 * `maxQueueSize` are dropped. Every drop is counted.
 */
export const createHttpModule = (opts: HttpModuleOptions): AnalyticsModule => {
  const agent = new Agent({ keepAliveTimeout: 10_000, connections: 2 });
  let queue: AnalyticsRecord[] = [];
  let sending: Promise<void> | undefined;
  let closing = false;
  /** Aborts backoff sleeps and requests once close's deadline passes. */
  const shutdown = new AbortController();
  const throttle = throttledLog();
  const logFailure = (msg: string, extra: Record<string, unknown>): void =>
    throttle((suppressed) => opts.logger.warn({ endpoint: opts.endpoint, ...extra, suppressed }, msg));

  const post = async (body: string): Promise<number> => {
    const res = await request(opts.endpoint, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body,
      dispatcher: agent,
      headersTimeout: opts.timeoutMs,
      bodyTimeout: opts.timeoutMs,
      signal: AbortSignal.any([AbortSignal.timeout(opts.timeoutMs), shutdown.signal]),
    });
    await res.body.dump();
    return res.statusCode;
  };

  /** Waits `ms`, or less if close's deadline passes; leaves no listener behind either way. */
  const sleep = (ms: number): Promise<void> =>
    new Promise((resolve) => {
      const wake = (): void => {
        clearTimeout(timer);
        shutdown.signal.removeEventListener('abort', wake);
        resolve();
      };
      const timer = setTimeout(wake, ms);
      shutdown.signal.addEventListener('abort', wake, { once: true });
    });

  const sendBatch = async (batch: AnalyticsRecord[]): Promise<void> => {
    const body = `[${batch.map(recordJson).join(',')}]`;
    for (let attempt = 0; ; attempt++) {
      let status = 0;
      let error: unknown;
      try {
        status = await post(body);
      } catch (err) {
        error = err;
      }
      if (status >= 200 && status < 300) {
        opts.counters.written(batch.length);
        return;
      }
      if ((status !== 0 && !retryable(status)) || attempt >= opts.maxRetries || shutdown.signal.aborted) {
        opts.counters.dropped(batch.length);
        logFailure('analytics batch dropped', { status, attempts: attempt + 1, records: batch.length, error: (error as Error | undefined)?.message });
        return;
      }
      const backoff = Math.min(MAX_BACKOFF_MS, opts.retryBackoffMs * 2 ** attempt);
      await sleep(backoff / 2 + Math.random() * (backoff / 2));
    }
  };

  /** Sends until the queue is empty; one run at a time. */
  const drain = (): Promise<void> => {
    if (sending !== undefined) return sending;
    if (queue.length === 0) return Promise.resolve();
    // `finally` runs as a promise reaction, so after `sending` is set. (Clearing it inside the run
    // instead would happen before the assignment whenever the run ends without waiting, leaving
    // a settled promise in `sending` and no batch ever sent again.)
    sending = (async () => {
      while (queue.length > 0) await sendBatch(queue.splice(0, opts.batchSize));
    })().finally(() => {
      sending = undefined;
    });
    return sending;
  };

  const timer = setInterval(() => void drain(), opts.flushIntervalMs);
  timer.unref();

  return {
    name: 'http',
    logEvent(record) {
      if (closing || queue.length >= opts.maxQueueSize) {
        opts.counters.dropped();
        return;
      }
      queue.push(record);
      if (queue.length >= opts.batchSize) void drain();
    },
    close: async () => {
      if (closing) return;
      closing = true;
      clearInterval(timer);
      const deadline = setTimeout(() => shutdown.abort(), opts.closeDeadlineMs);
      try {
        await drain();
      } finally {
        clearTimeout(deadline);
        if (queue.length > 0) opts.counters.dropped(queue.length);
        queue = [];
        await agent.close();
      }
    },
  };
};
