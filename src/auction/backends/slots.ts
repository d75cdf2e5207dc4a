/**
 * At most `size` holders at once; the others wait, first come first served.
 *
 * Contract: `take(start)` calls `start` once a slot is free (synchronously when one is free now)
 * and returns a function that gives the slot back, or, while still waiting, leaves the queue
 * without `start` ever being called. Calling that function more than once does nothing.
 */
export class Slots {
  private free: number;
  /** Waiting `start`s in arrival order (a Set keeps insertion order and drops any in O(1)). */
  private readonly waiting = new Set<() => void>();

  constructor(size: number) {
    this.free = size;
  }

  take(start: () => void): () => void {
    let state: 'waiting' | 'held' | 'done' = 'waiting';
    const run = (): void => {
      state = 'held';
      start();
    };
    if (this.free > 0) {
      this.free--;
      run();
    } else {
      this.waiting.add(run);
    }
    return () => {
      if (state === 'waiting') this.waiting.delete(run);
      else if (state === 'held') this.giveBack();
      state = 'done';
    };
  }

  private giveBack(): void {
    const next = this.waiting.values().next();
    if (next.done === true) {
      this.free++;
      return;
    }
    this.waiting.delete(next.value);
    next.value();
  }
}
