import { createGunzip } from 'node:zlib';
import type { Gunzip } from 'node:zlib';

/** How a {@link BoundedGunzip} ended. */
export type GunzipOutcome =
  | { readonly kind: 'inflated'; readonly body: Buffer }
  | { readonly kind: 'too-large' }
  | { readonly kind: 'failed'; readonly error: Error };

/**
 * Output buffers are at most this large. Up to it, the whole allowed output plus one byte is a
 * single buffer, so a gzip bomb is known after one job in the thread pool and one allocation,
 * rather than a buffer and a round trip per 16 KiB (zlib's default) all alive until the last.
 * Reading whole bodies before inflating, the 50-way bomb flood peaked at ~380 MiB RSS with 16 KiB
 * buffers, ~350 with 256 KiB ones and ~245 with one. A larger answer limit takes several buffers
 * rather than one huge allocation per call.
 */
const MAX_OUTPUT_CHUNK_BYTES = 4 * 1024 * 1024;

/**
 * Inflates a gzip body as its bytes arrive, in zlib's thread pool, and gives up as soon as the
 * output passes `limit` bytes: a gzip bomb costs at most `limit` bytes of output and the compressed
 * bytes read until then, never the rest of the body.
 *
 * Contract: `write` each compressed chunk in order, then `end` once; `done` is called exactly
 * once, with the whole output, `too-large` (the output passed `limit`), or `failed` (not gzip, cut
 * short); `idle` each time everything written so far is inflated while `end` has not been called
 * (the caller may then stop counting it as working); `destroy` stops it with no call to either.
 * Nothing is called synchronously from `write` or `end`.
 */
export class BoundedGunzip {
  private readonly stream: Gunzip;
  private readonly parts: Buffer[] = [];
  private size = 0;
  private over = false;
  private ended = false;
  /** Chunks written and not yet inflated. */
  private pending = 0;

  constructor(
    private readonly limit: number,
    private readonly done: (outcome: GunzipOutcome) => void,
    private readonly idle: () => void,
  ) {
    this.stream = createGunzip({ chunkSize: Math.min(limit + 1, MAX_OUTPUT_CHUNK_BYTES) });
    this.stream.on('data', this.onData);
    this.stream.on('end', this.onEnd);
    this.stream.on('error', this.onError);
  }

  write(chunk: Buffer): void {
    if (this.over || this.ended) return;
    this.pending++;
    this.stream.write(chunk, this.onWritten);
  }

  end(): void {
    if (this.over || this.ended) return;
    this.ended = true;
    this.stream.end();
  }

  /** Stops the inflation and frees zlib's state; `done` is not called (any more). */
  destroy(): void {
    this.over = true;
    this.stream.destroy();
  }

  private readonly onData = (part: Buffer): void => {
    if (this.over) return;
    this.size += part.length;
    if (this.size > this.limit) return this.finish({ kind: 'too-large' });
    this.parts.push(part);
  };

  private readonly onWritten = (): void => {
    if (--this.pending === 0 && !this.over && !this.ended) this.idle();
  };

  private readonly onEnd = (): void => {
    if (this.over) return;
    const body = this.parts.length === 1 ? this.parts[0]! : Buffer.concat(this.parts, this.size);
    this.finish({ kind: 'inflated', body });
  };

  private readonly onError = (error: Error): void => {
    if (!this.over) this.finish({ kind: 'failed', error });
  };

  private finish(outcome: GunzipOutcome): void {
    this.destroy();
    this.done(outcome);
  }
}
