import { AppError, ErrorCode } from '../../core/app-error.js';
import type { KeyValueEntry, KeyValueStore } from '../key-value-store.js';
import { createRingSegment, entryBytes, hashKey } from './ring-segment.js';
import type { RingSegment } from './ring-segment.js';

export interface MemoryStoreOptions {
  /** Upper bound of the bytes this store takes: its rings and their indexes. */
  readonly maxSizeBytes: number;
  /** Time source in ms, for tests; defaults to `Date.now`. */
  readonly now?: () => number;
  /** The largest ring of one segment; smaller only in tests, to exercise several segments. */
  readonly maxSegmentRingBytes?: number;
}

/** The part of `maxSizeBytes` given to the indexes; an entry costs 16 bytes of index at most. */
const INDEX_SHARE = 1 / 8;
/**
 * The largest ring of one segment. Larger stores are split into segments chosen by key hash, so
 * offsets stay 31-bit integers and no single Buffer comes near Node's size limit.
 */
const MAX_SEGMENT_RING_BYTES = 2 ** 30;

/**
 * An in-process store kept in ring segments (`ring-segment.ts`): values live in a few large
 * buffers the garbage collector never walks, and the oldest entries are evicted first once
 * `maxSizeBytes` is reached; expired ones are dropped when read or when eviction reaches them.
 * Reads and writes answer directly (no promise), so a batch is trivially atomic.
 */
export const createMemoryStore = (opts: MemoryStoreOptions): KeyValueStore => {
  const indexBytes = Math.floor(opts.maxSizeBytes * INDEX_SHARE);
  const ringBytes = opts.maxSizeBytes - indexBytes;
  const count = Math.ceil(ringBytes / (opts.maxSegmentRingBytes ?? MAX_SEGMENT_RING_BYTES));
  let segments: readonly RingSegment[] = Array.from({ length: count }, () =>
    createRingSegment({ ringBytes: Math.floor(ringBytes / count), indexBytes: Math.floor(indexBytes / count) }),
  );
  const now = opts.now ?? Date.now;
  let closed = false;

  const ensureOpen = (): void => {
    if (closed) throw new AppError(ErrorCode.BACKEND_FAILURE, 'memory store is closed');
  };

  // The top bits of the hash pick the segment; the index inside it uses the low bits.
  const segmentIndex = (hash: number): number => (count === 1 ? 0 : Math.floor((hash / 2 ** 32) * count));
  const segmentOf = (hash: number): RingSegment => segments[segmentIndex(hash)] as RingSegment;

  // Per-segment totals of the batch being checked, reused from call to call (writes are synchronous).
  const batchBytes = new Float64Array(count);
  const batchLargest = new Float64Array(count);
  const batchEntries = new Float64Array(count);
  /**
   * Refuses a batch that would not stay whole: one whose entries, with the filler a wrap may
   * leave, would not fit a segment's ring or index together, so a later entry would evict an
   * earlier one of the same batch.
   */
  const checkFits = (entries: readonly KeyValueEntry[], hashes: readonly number[], keyBytes: readonly number[]): void => {
    batchBytes.fill(0);
    batchLargest.fill(0);
    batchEntries.fill(0);
    for (let i = 0; i < entries.length; i++) {
      const s = segmentIndex(hashes[i] as number);
      const size = entryBytes(keyBytes[i] as number, (entries[i] as KeyValueEntry).value.length);
      batchBytes[s] = (batchBytes[s] as number) + size;
      batchLargest[s] = Math.max(batchLargest[s] as number, size);
      batchEntries[s] = (batchEntries[s] as number) + 1;
    }
    for (let s = 0; s < count; s++) {
      const segment = segments[s] as RingSegment;
      const n = batchEntries[s] as number;
      if (n === 0) continue;
      // A lone entry needs only its own bytes; several may also leave a filler when they wrap.
      const ringNeed = (batchBytes[s] as number) + (n === 1 ? 0 : (batchLargest[s] as number));
      if (ringNeed > segment.capacity || n > segment.maxEntries) {
        throw new AppError(
          ErrorCode.BACKEND_FAILURE,
          `memory store: a batch of ${entries.length} value(s), ${batchBytes[s]} bytes in one segment, does not fit max_size_bytes ${opts.maxSizeBytes}`,
        );
      }
    }
  };

  return {
    kind: 'memory',
    copiesOnPut: true,
    // Answered directly, without a promise: this read is the whole of a GET /cache hit.
    get: (key) => {
      ensureOpen();
      const hash = hashKey(key);
      return segmentOf(hash).get(key, hash, now());
    },
    // Answered directly too: on POST /cache the promise hops cost more than the write.
    putMany: (entries, { createOnly }) => {
      ensureOpen();
      const hashes = entries.map((e) => hashKey(e.key));
      const keyBytes = entries.map((e) => Buffer.byteLength(e.key, 'utf8'));
      checkFits(entries, hashes, keyBytes);
      const t = now();
      return entries.map((e, i) => {
        const hash = hashes[i] as number;
        return segmentOf(hash).set(e.key, keyBytes[i] as number, hash, e.value, t, t + e.ttlSeconds * 1000, createOnly);
      });
    },
    delete: async (keys) => {
      ensureOpen();
      for (const key of keys) {
        const hash = hashKey(key);
        segmentOf(hash).delete(key, hash);
      }
    },
    close: async () => {
      closed = true;
      segments = [];
    },
  };
};
