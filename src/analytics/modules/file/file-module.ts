import { open } from 'node:fs/promises';
import { throttledLog } from '../../../core/log-throttle.js';
import type { Logger } from '../../../core/logger.js';
import type { AnalyticsModule, AnalyticsRecord, RecordCounters } from '../../analytics-module.js';
import { recordJson } from '../../record-json.js';

export interface FileModuleOptions {
  readonly path: string;
  readonly flushIntervalMs: number;
  /** Records waiting beyond this many bytes are dropped (and counted). */
  readonly maxBufferBytes: number;
  readonly counters: RecordCounters;
  readonly logger: Logger;
}

/** Once this much is waiting, a flush starts without waiting for the timer. */
const FLUSH_AT_BYTES = 64 * 1024;

/**
 * Appends one JSON object per line to a file. Records are buffered in memory and written whole
 * lines at a time, one write after another (never two at once, so lines never interleave), at
 * least every `flushIntervalMs`, as soon as 64 KiB wait, and on `close`, which waits for the last
 * write: a record taken before shutdown is on disk when the process exits.
 *
 * The file is opened (created if missing) before the server starts; a path that cannot be opened
 * stops the start with its error.
 */
export const createFileModule = async (opts: FileModuleOptions): Promise<AnalyticsModule> => {
  const file = await open(opts.path, 'a');
  let lines: string[] = [];
  let bufferedBytes = 0;
  let writing: Promise<void> = Promise.resolve();
  let closed = false;
  const logFailure = throttledLog();

  const writeOut = async (): Promise<void> => {
    if (lines.length === 0) return;
    const batch = lines;
    lines = [];
    bufferedBytes = 0;
    const data = Buffer.from(batch.join(''), 'utf8');
    try {
      let offset = 0;
      // A regular file takes the whole buffer in one write; the loop covers a short write.
      while (offset < data.length) offset += (await file.write(data, offset, data.length - offset)).bytesWritten;
      opts.counters.written(batch.length);
    } catch (err) {
      opts.counters.dropped(batch.length);
      logFailure((suppressed) => opts.logger.error({ err, path: opts.path, records: batch.length, suppressed }, 'analytics file write failed; records dropped'));
    }
  };

  /** Queues a write behind the one in progress; resolves when everything taken so far is written. */
  const flush = (): Promise<void> => (writing = writing.then(writeOut));

  const timer = setInterval(() => void flush(), opts.flushIntervalMs);
  timer.unref();

  const take = (record: AnalyticsRecord): void => {
    if (closed) {
      opts.counters.dropped();
      return;
    }
    const line = `${recordJson(record)}\n`;
    if (bufferedBytes + line.length > opts.maxBufferBytes) {
      opts.counters.dropped();
      return;
    }
    lines.push(line);
    bufferedBytes += line.length;
    if (bufferedBytes >= FLUSH_AT_BYTES) void flush();
  };

  return {
    name: 'file',
    logEvent: take,
    close: async () => {
      if (closed) return writing;
      closed = true;
      clearInterval(timer);
      await flush();
      await file.close();
    },
  };
};
