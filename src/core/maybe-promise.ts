/**
 * A result that may be ready now: in-process backends answer directly, network ones with a
 * promise. `await` accepts either; hot paths use {@link mapMaybe} to skip the promise hop (a
 * microtask turn per layer, a measurable share of a cache hit) when the value is already there.
 */
export type MaybePromise<T> = T | Promise<T>;

/**
 * `fn` applied to the value, now if it is here, else when the promise resolves. `fn` may itself
 * answer with a promise: the result is a value only when both steps answered directly.
 */
export const mapMaybe = <T, U>(value: MaybePromise<T>, fn: (v: T) => MaybePromise<U>): MaybePromise<U> =>
  value instanceof Promise ? value.then(fn) : fn(value);
