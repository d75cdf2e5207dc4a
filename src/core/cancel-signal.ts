/**
 * What work that can be cut short listens to: the part of `AbortSignal` that the auction's bidder
 * calls and bid cache use. A real `AbortSignal` is one; the auction's own deadline is a lighter
 * one (`deadlineSignal`), because an `AbortController` and Node's `EventTarget` behind it cost
 * ~15 µs per auction, 3–4% of a small one.
 *
 * Contract: `aborted` turns true once and stays true. Every listener added and not removed by
 * then is called once, after `aborted` has turned true; listeners must not throw. Removing a
 * listener that was not added does nothing.
 */
export interface CancelSignal {
  readonly aborted: boolean;
  addEventListener(type: 'abort', listener: () => void): void;
  removeEventListener(type: 'abort', listener: () => void): void;
}
