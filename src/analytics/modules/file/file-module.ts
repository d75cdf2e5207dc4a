import { open } from 'node:fs/promises';
import { throttledLog } from '../../../core/log-throttle.js';
import type { Logger } from '../../../core/logger.js';
import type { AnalyticsModule, AnalyticsRecord, RecordCounters } from '../../analytics-module.js';
import { recordJson } from '../../record-json.js';
import { CHUNK_BYTES, LineChunks } from './line-chunks.js';

export interface FileModuleOptions {
  readonly path: string;
  readonly flushIntervalMs: number;
  /** Records waiting beyond this many bytes are dropped (and counted). */
  readonly maxBufferBytes: number;
  readonly counters: RecordCounters;
  readonly logger: Logger;
}

/**
 * Appends one JSON object per line to a file. Records wait as UTF-8 bytes (`LineChunks`, counted
 * against `maxBufferBytes`) and are written whole lines at a time, one write after another (never
 * two at once, so lines never interleave), at least every `flushIntervalMs`, as soon as 64 KiB
 * wait, and on `close`, which waits for the last write: a record taken before shutdown is on disk
 * when the process exits.
 *
 * The file is opened (created if missing) before the server starts; a path that cannot be opened
 * stops the start with its error.
 */
export const createFileModule = async (opts: FileModuleOptions): Promise<AnalyticsModule> => {
  const file = await open(opts.path, 'a');
  const waiting = new LineChunks(opts.maxBufferBytes);
  let writing: Promise<void> = Promise.resolve();
  let closed = false;
  const logFailure = throttledLog();

  const writeOut = async (): Promise<void> => {
    const batch = waiting.take();
    if (batch.lines === 0) return;
    try {
      for (const chunk of batch.chunks) {
        let offset = 0;
        // A regular file takes the whole chunk in one write; the loop covers a short write.
        while (offset < chunk.length) offset += (await file.write(chunk, offset, chunk.length - offset)).bytesWritten;
      }
      opts.counters.written(batch.lines);
    } catch (err) {
      opts.counters.dropped(batch.lines);
      logFailure((suppressed) => opts.logger.error({ err, path: opts.path, records: batch.lines, suppressed }, 'analytics file write failed; records dropped'));
    }
  };

  /** A write queued behind the one in progress that has not yet taken its lines. */
  let queued: Promise<void> | undefined;

  /**
   * Queues a write behind the one in progress (at most one waits: it takes whatever is there when
   * it starts); resolves when everything taken so far is written.
   */
  const flush = (): Promise<void> => {
    if (queued === undefined) {
      queued = writing = writing.then(() => {
        queued = undefined;
        return writeOut();
      });
    }
    return queued;
  };

  const timer = setInterval(() => void flush(), opts.flushIntervalMs);
  timer.unref();

  const take = (record: AnalyticsRecord): void => {
    if (closed) {
      opts.counters.dropped();
      return;
    }
    if (!waiting.push(recordJson(record))) {
      opts.counters.dropped();
      return;
    }
    if (waiting.waitingBytes >= CHUNK_BYTES) void flush();
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
