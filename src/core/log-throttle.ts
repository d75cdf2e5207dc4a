/** How often, at most, a repeated failure is logged. */
export const LOG_INTERVAL_MS = 5000;

/**
 * Limits how often a repeated failure is logged: a dead backend under load must not flood the
 * log. The returned function runs `log` at most once per `intervalMs`, passing how many calls were
 * skipped since the last line, and drops the others.
 */
export const throttledLog = (intervalMs = LOG_INTERVAL_MS, now: () => number = Date.now) => {
  let last = -Infinity;
  let suppressed = 0;
  return (log: (suppressed: number) => void): void => {
    const t = now();
    if (t - last < intervalMs) {
      suppressed++;
      return;
    }
    last = t;
    const skipped = suppressed;
    suppressed = 0;
    log(skipped);
  };
};
