/** An `AbortSignal` that aborts at a deadline, and the means to disarm it once the work is done. */
export interface DeadlineSignal {
  readonly signal: AbortSignal;
  /** Disarms the timer; call it when the work the signal bounds has settled. */
  clear(): void;
}

/**
 * Aborts after `ms`. Unlike `AbortSignal.timeout`, the timer is cleared when the work is done:
 * an auction that ends early leaves no timer behind to fire later (and build an abort error
 * nobody reads) for every bidder call of every auction.
 */
export const deadlineSignal = (ms: number): DeadlineSignal => {
  const controller = new AbortController();
  const timer = setTimeout(() => controller.abort(), Math.max(0, ms));
  return { signal: controller.signal, clear: () => clearTimeout(timer) };
};
