/** Bytes of one chunk; a flush of the file module starts once this much waits. */
export const CHUNK_BYTES = 64 * 1024;

/** What `take` hands over: the bytes to write, in order, and how many lines they hold. */
export interface TakenLines {
  readonly chunks: readonly Buffer[];
  readonly lines: number;
  readonly bytes: number;
}

/**
 * Lines of text waiting to be written, kept as UTF-8 bytes in 64 KiB chunks outside the JS heap.
 *
 * Why: a line kept as a string lives a few milliseconds, long enough to survive a young-generation
 * GC and be copied, often promoted; under a busy `/event` load those copies made each scavenge
 * several times dearer (README, "Performance"). A line written into a chunk is garbage at once.
 *
 * Contract: `push` appends a line and a `\n` whole, or nothing when the waiting bytes would pass
 * `maxBytes` (then it returns false). `take` hands over everything pushed so far, in push order,
 * and starts afresh; the chunks it hands over belong to the caller. A line longer than a chunk
 * gets a chunk of its own size.
 */
export class LineChunks {
  private readonly full: Buffer[] = [];
  private current: Buffer | undefined;
  private used = 0;
  private lines = 0;
  private bytes = 0;

  constructor(private readonly maxBytes: number) {}

  /** Bytes waiting to be taken. */
  get waitingBytes(): number {
    return this.bytes;
  }

  push(line: string): boolean {
    // UTF-8 needs at most 3 bytes per UTF-16 unit: with that much room the line is written
    // without counting its bytes first; near a limit the exact count decides.
    const bound = line.length * 3 + 1;
    let size = bound;
    if (this.bytes + bound > this.maxBytes) {
      size = Buffer.byteLength(line, 'utf8') + 1;
      if (this.bytes + size > this.maxBytes) return false;
    }
    let chunk = this.current;
    if (chunk === undefined || this.used + size > chunk.length) {
      if (size === bound) size = Buffer.byteLength(line, 'utf8') + 1;
      if (chunk === undefined || this.used + size > chunk.length) {
        this.closeCurrent();
        chunk = this.current = Buffer.allocUnsafeSlow(Math.max(CHUNK_BYTES, size));
      }
    }
    const written = chunk.write(line, this.used, 'utf8');
    chunk[this.used + written] = 0x0a;
    this.used += written + 1;
    this.bytes += written + 1;
    this.lines++;
    return true;
  }

  take(): TakenLines {
    this.closeCurrent();
    const taken = { chunks: this.full.splice(0), lines: this.lines, bytes: this.bytes };
    this.lines = 0;
    this.bytes = 0;
    return taken;
  }

  private closeCurrent(): void {
    if (this.current !== undefined && this.used > 0) this.full.push(this.current.subarray(0, this.used));
    this.current = undefined;
    this.used = 0;
  }
}
