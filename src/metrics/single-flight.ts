/**
 * `run` made single-flight: a call while an earlier call's promise is unsettled gets that same
 * promise (its value or its rejection) instead of starting `run` again; the first call after it
 * settles starts a new one. For work whose answer any caller waiting at the same time can share
 * (a metrics gathering), so a burst of callers costs one run.
 */
export const singleFlight = <T>(run: () => Promise<T>): (() => Promise<T>) => {
  let inFlight: Promise<T> | undefined;
  const done = (): void => {
    inFlight = undefined;
  };
  return () => {
    if (inFlight === undefined) {
      // Assigned before `then`, so a `run` that has already settled still clears it afterwards.
      const started = run();
      inFlight = started;
      started.then(done, done);
    }
    return inFlight;
  };
};
