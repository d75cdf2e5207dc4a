import { setMaxListeners } from 'node:events';

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
  // Every bidder call in flight listens to the one signal of its auction; their number is bounded
  // by the bidders per request and the calls their adapters make, not by Node's default of 10,
  // past which Node would print a leak warning for an ordinary 11-call auction.
  setMaxListeners(0, controller.signal);
  const timer = setTimeout(() => controller.abort(), Math.max(0, ms));
  return { signal: controller.signal, clear: () => clearTimeout(timer) };
};
