/*
 * How long the tests wait for something that must happen eventually (a process to start, a
 * worker to listen, a record to be delivered). These waits end as soon as the thing happens, so
 * a long bound costs nothing when all is well: it only decides how long a broken start takes to
 * be reported. On a loaded machine (two cores shared with other work, CI) a Node.js process can
 * take many seconds to print its first line, so start-up waits are generous.
 */

/**
 * `OPENBID_TEST_TIME_FACTOR` (a positive number, default 1): every wait bound of the test support
 * (`waitFor`, the start-up waits) is multiplied by it, for machines slower still than the bounds
 * allow. A value that is not a positive number counts as 1.
 */
export const TIME_FACTOR = ((): number => {
  const given = Number(process.env.OPENBID_TEST_TIME_FACTOR ?? '1');
  return Number.isFinite(given) && given > 0 ? given : 1;
})();

/** `ms` times `TIME_FACTOR`, rounded. */
export const scaled = (ms: number): number => Math.round(ms * TIME_FACTOR);

/**
 * How long a process a test starts (openbid, Redis, Postgres) may take to become ready: 60 s, a
 * bound given to `waitFor`, which multiplies it by `TIME_FACTOR`. A process that exits first
 * fails its start at once; this bound is only for one that neither answers nor exits.
 */
export const STARTUP_TIMEOUT_MS = 60_000;
