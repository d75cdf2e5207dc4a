/**
 * A set of vendor ids (1–65,535) held as the sorted, merged ranges it was written as: a range of
 * any width costs one pair, so building the set costs what reading its entries cost, never the
 * ids they cover. Membership is a binary search.
 */
export interface IdRanges {
  has(id: number): boolean;
  /** Bytes held, roughly. */
  readonly bytes: number;
}

/** Ranges as read, start and end (inclusive) side by side, in any order, overlapping or not. */
export class RangeList {
  private readonly starts: number[] = [];
  private readonly ends: number[] = [];
  private sorted = true;

  get size(): number {
    return this.starts.length;
  }

  add(start: number, end: number): void {
    const n = this.starts.length;
    if (n > 0 && start < this.starts[n - 1]!) this.sorted = false;
    this.starts.push(start);
    this.ends.push(end);
  }

  /** The ranges merged into an `IdRanges` (sorted first when they were written out of order). */
  seal(): IdRanges {
    const order = Array.from(this.starts.keys());
    if (!this.sorted) order.sort((a, b) => this.starts[a]! - this.starts[b]!);
    const merged: number[] = [];
    for (const i of order) {
      const start = this.starts[i]!;
      const end = this.ends[i]!;
      const last = merged.length - 1;
      if (merged.length > 0 && start <= merged[last]! + 1) merged[last] = Math.max(merged[last]!, end);
      else merged.push(start, end);
    }
    return rangesOf(Uint16Array.from(merged));
  }
}

/** An `IdRanges` over `[start0, end0, start1, end1, …]`, sorted and disjoint. */
const rangesOf = (pairs: Uint16Array): IdRanges => ({
  bytes: 64 + pairs.byteLength,
  has(id) {
    let lo = 0;
    let hi = pairs.length / 2 - 1;
    while (lo <= hi) {
      const mid = (lo + hi) >> 1;
      if (id < pairs[2 * mid]!) hi = mid - 1;
      else if (id > pairs[2 * mid + 1]!) lo = mid + 1;
      else return true;
    }
    return false;
  },
});

/** A bit field's ids: bit `i` (from 0) stands for id `i + 1`. */
export const bitFieldIds = (bits: Uint8Array, count: number): IdRanges => ({
  bytes: 64 + bits.byteLength,
  has: (id) => id >= 1 && id <= count && ((bits[(id - 1) >> 3]! >> (7 - ((id - 1) & 7))) & 1) === 1,
});

/** No ids. */
export const NO_IDS: IdRanges = Object.freeze({ bytes: 0, has: () => false });
