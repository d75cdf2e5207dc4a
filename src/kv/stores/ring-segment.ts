import { byteStringOf } from '../../core/bytes.js';
import type { ByteString } from '../../core/bytes.js';

/**
 * One segment of the memory store: a fixed ring of bytes holding entries back to back, oldest
 * first, and an open-addressing index from key to entry offset kept in two typed arrays.
 *
 * Why not one JS object per entry (lru-cache): every cache write makes a value that lives for
 * minutes. Held as a Buffer and a key string per entry, each one is promoted through the young
 * generation and then marked on every full collection, which cost about a fifth of `POST /cache`
 * throughput (README, "Performance"). Here an entry is bytes in one large buffer and two numbers
 * in the index, so the garbage collector never sees it.
 *
 * Entry layout, 8-byte aligned: a 24-byte header (size with a filler flag in its low bits, key
 * hash, key bytes, value bytes, expiry as a float64 in ms), the key in UTF-8, the value. When an
 * entry does not fit before the end of the ring, the rest of the ring becomes a filler and the
 * entry starts at 0. Writing evicts the oldest entries (first in, first out) until there is room.
 *
 * Not safe to hand out views: the bytes of an evicted entry are overwritten by the next writes, so
 * reads return a copy, as a `ByteString` (one character per byte). A string is a single copy on
 * the JS heap, gone with the young generation; a Buffer copy is an external allocation, and even
 * cut from shared slabs it made a 1 KB `GET /cache` ~3% slower (README, "Performance").
 */
export interface RingSegment {
  /** A copy of the value of `key`, or undefined when it is absent or expired at `now`. */
  get(key: string, hash: number, now: number): ByteString | undefined;
  /**
   * Writes `key` (its UTF-8 length is `keyBytes`), evicting the oldest entries as needed, and
   * answers true. An entry of the same key is replaced, unless `createOnly` is set and it is still
   * live at `now`: then nothing is written and the answer is false. The caller checks first that
   * the entry fits (`entryBytes` ≤ `capacity`).
   */
  set(key: string, keyBytes: number, hash: number, value: Buffer, now: number, expiresAt: number, createOnly: boolean): boolean;
  /** Removes `key` and zeroes its bytes; a missing key is no error. */
  delete(key: string, hash: number): void;
  /** Ring bytes: the largest entry that fits. */
  readonly capacity: number;
  /** Most entries held at once (the index never grows past twice this many slots). */
  readonly maxEntries: number;
  /** Entries currently indexed (expired ones included until read or evicted). */
  size(): number;
}

export interface RingSegmentOptions {
  /** Bytes of the ring; rounded down to a multiple of 8. */
  readonly ringBytes: number;
  /** Bytes the index may take (8 per slot, at most half the slots used). */
  readonly indexBytes: number;
}

const HEADER_BYTES = 24;
const FILLER = 1;
const SIZE_MASK = ~7;
// Header fields, in 32-bit words from the entry start; the expiry is the third float64.
const W_SIZE = 0;
const W_HASH = 1;
const W_KEY_BYTES = 2;
const W_VALUE_BYTES = 3;
const F_EXPIRES = 2;
const FIRST_SLOTS = 64;

const align8 = (n: number): number => (n + 7) & SIZE_MASK;

/** Bytes an entry takes in a ring: header, key and value, rounded up to 8. */
export const entryBytes = (keyBytes: number, valueBytes: number): number => align8(HEADER_BYTES + keyBytes + valueBytes);

/**
 * 32-bit FNV-1a over the UTF-16 code units of `key`: cheap for the 36-character UUIDs that most
 * keys are, and equal strings always hash alike whatever their encoding in the ring.
 */
export const hashKey = (key: string): number => {
  let h = 0x811c9dc5;
  for (let i = 0; i < key.length; i++) {
    h ^= key.charCodeAt(i);
    h = Math.imul(h, 0x01000193);
  }
  return h >>> 0;
};

const largestPowerOfTwoAtMost = (n: number): number => 2 ** Math.floor(Math.log2(Math.max(n, 1)));

export const createRingSegment = (opts: RingSegmentOptions): RingSegment => {
  const capacity = Math.floor(opts.ringBytes / 8) * 8;
  const maxSlots = Math.max(largestPowerOfTwoAtMost(opts.indexBytes / 8), 2);
  const maxEntries = maxSlots / 2;
  // A buffer of its own (not pooled) starting at offset 0, so the typed views below are aligned;
  // its pages become resident only as the ring first reaches them.
  const ring = Buffer.allocUnsafeSlow(capacity);
  const words = new Uint32Array(ring.buffer, ring.byteOffset, capacity / 4);
  const times = new Float64Array(ring.buffer, ring.byteOffset, capacity / 8);

  let head = 0; // where the next entry goes
  let tail = 0; // the oldest entry (or filler)
  let used = 0; // bytes from tail to head, fillers included
  let count = 0; // indexed entries

  // Slot i holds an entry's key hash at 2i and its offset + 1 (0 = empty) at 2i + 1, side by side
  // so a probe touches one cache line; linear probing.
  let slots = Math.min(FIRST_SLOTS, maxSlots);
  let mask = slots - 1;
  let table = new Uint32Array(slots * 2);

  const keyMatches = (offset: number, key: string): boolean => {
    const keyBytes = words[(offset >> 2) + W_KEY_BYTES] as number;
    const start = offset + HEADER_BYTES;
    if (keyBytes === key.length) {
      let ascii = true;
      for (let i = 0; i < keyBytes; i++) {
        const c = key.charCodeAt(i);
        // A non-ASCII character may match a byte of another character's UTF-8: compare encodings.
        if (c >= 0x80) {
          ascii = false;
          break;
        }
        if (c !== ring[start + i]) return false;
      }
      if (ascii) return true;
    }
    const encoded = Buffer.from(key, 'utf8');
    return encoded.length === keyBytes && ring.compare(encoded, 0, keyBytes, start, start + keyBytes) === 0;
  };

  /** The slot of `key`, or -1. */
  const find = (key: string, hash: number): number => {
    for (let i = hash & mask; ; i = (i + 1) & mask) {
      const o = table[(i << 1) + 1] as number;
      if (o === 0) return -1;
      if (table[i << 1] === hash && keyMatches(o - 1, key)) return i;
    }
  };

  const place = (hash: number, offset: number): void => {
    let i = hash & mask;
    while (table[(i << 1) + 1] !== 0) i = (i + 1) & mask;
    table[i << 1] = hash;
    table[(i << 1) + 1] = offset + 1;
  };

  const grow = (): void => {
    const old = table;
    slots *= 2;
    mask = slots - 1;
    table = new Uint32Array(slots * 2);
    for (let i = 0; i < old.length; i += 2) if (old[i + 1] !== 0) place(old[i] as number, (old[i + 1] as number) - 1);
  };

  /** Empties slot `i`, shifting back the entries probed past it so every lookup still finds them. */
  const removeSlot = (i: number): void => {
    let hole = i;
    for (let j = (i + 1) & mask; table[(j << 1) + 1] !== 0; j = (j + 1) & mask) {
      const home = (table[j << 1] as number) & mask;
      // Entry j may fill the hole unless its home lies cyclically in (hole, j].
      const homeBetween = hole <= j ? home > hole && home <= j : home > hole || home <= j;
      if (!homeBetween) {
        table[hole << 1] = table[j << 1] as number;
        table[(hole << 1) + 1] = table[(j << 1) + 1] as number;
        hole = j;
      }
    }
    table[(hole << 1) + 1] = 0;
    count--;
  };

  /** Removes the entry in slot `i` and zeroes its key and value, so deleted data does not linger. */
  const forget = (i: number): void => {
    const offset = (table[(i << 1) + 1] as number) - 1;
    const w = offset >> 2;
    ring.fill(0, offset + HEADER_BYTES, offset + HEADER_BYTES + (words[w + W_KEY_BYTES] as number) + (words[w + W_VALUE_BYTES] as number));
    removeSlot(i);
  };

  /** Drops the oldest entry or filler from the ring (and from the index, if still indexed there). */
  const evictOldest = (): void => {
    const w = tail >> 2;
    const header = words[w + W_SIZE] as number;
    if ((header & FILLER) === 0) {
      const hash = words[w + W_HASH] as number;
      for (let i = hash & mask; table[(i << 1) + 1] !== 0; i = (i + 1) & mask) {
        if (table[(i << 1) + 1] === tail + 1) {
          removeSlot(i);
          break;
        }
      }
    }
    const size = header & SIZE_MASK;
    tail += size;
    if (tail === capacity) tail = 0;
    used -= size;
  };

  /** Evicts until the `bytes` after `head` are free (the free space always runs from head to tail). */
  const reserve = (bytes: number): void => {
    while (capacity - used < bytes) evictOldest();
  };

  const valueStart = (offset: number): number => offset + HEADER_BYTES + (words[(offset >> 2) + W_KEY_BYTES] as number);

  const isLive = (i: number, now: number): boolean => (times[(((table[(i << 1) + 1] as number) - 1) >> 3) + F_EXPIRES] as number) > now;

  return {
    capacity,
    maxEntries,
    size: () => count,

    get: (key, hash, now) => {
      const i = find(key, hash);
      if (i === -1) return undefined;
      if (!isLive(i, now)) {
        forget(i);
        return undefined;
      }
      const offset = (table[(i << 1) + 1] as number) - 1;
      const start = valueStart(offset);
      return byteStringOf(ring, start, start + (words[(offset >> 2) + W_VALUE_BYTES] as number));
    },

    set: (key, keyBytes, hash, value, now, expiresAt, createOnly) => {
      const size = entryBytes(keyBytes, value.length);
      if (size > capacity) throw new RangeError(`an entry of ${size} bytes does not fit a ring of ${capacity}`);
      // One probe serves both the create-only check and the replacement.
      const existing = find(key, hash);
      if (existing !== -1) {
        if (createOnly && isLive(existing, now)) return false;
        forget(existing);
      }
      if (head + size > capacity) {
        const rest = capacity - head;
        reserve(rest);
        words[head >> 2] = rest | FILLER;
        used += rest;
        head = 0;
      }
      reserve(size);
      // `used > 0` bounds the loop by one pass over the ring even if the index were ever wrong.
      while (count >= maxEntries && used > 0) evictOldest();
      if (count + 1 > slots / 2) grow();

      const w = head >> 2;
      words[w + W_SIZE] = size;
      words[w + W_HASH] = hash;
      words[w + W_KEY_BYTES] = keyBytes;
      words[w + W_VALUE_BYTES] = value.length;
      times[(head >> 3) + F_EXPIRES] = expiresAt;
      ring.write(key, head + HEADER_BYTES, keyBytes, 'utf8');
      value.copy(ring, head + HEADER_BYTES + keyBytes);
      place(hash, head);
      count++;

      head += size;
      if (head === capacity) head = 0;
      used += size;
      return true;
    },

    delete: (key, hash) => {
      const i = find(key, hash);
      if (i !== -1) forget(i);
    },
  };
};
