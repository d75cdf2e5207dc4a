import { setImmediate } from 'node:timers';

/**
 * The most answers held back in one turn: the batch is written as soon as it has this many, so
 * under thousands of connections the first answer of a turn waits for at most 31 others to be
 * handled (under 1 ms of `POST /cache` work), not for the whole turn. At 64 connections 32
 * measured the same throughput as no bound, 16 −2%, 4 −17% (README, "Performance").
 */
export const MAX_TURN_BATCH = 32;

/**
 * Answers held until the end of the event-loop turn (`setImmediate`) and written together with
 * every other answer ready by then, instead of one by one as each request is read.
 *
 * Why: a socket write that finds its reader asleep pays to wake it (on loopback the reader's
 * whole receive path runs in the writer's system call), and answers written one by one wake it
 * once each; in a burst, once. With the load generator on the same host this measured +50% on
 * `POST /cache` and +10–30% on `GET /cache`, and a bare node:http server doing the same gains
 * about as much (README, "Performance"): it saves CPU when clients are on the same host (a
 * sidecar proxy, a local load balancer), not work of the server's own. An answer waits only for
 * the other requests read in the same turn, which the loop was busy with anyway, and for at most
 * `MAX_TURN_BATCH - 1` of them; it never waits for new I/O.
 */
export interface TurnBatch<A, B, C, D, E> {
  /** Queues one answer's five parts; `write` gets them, in queue order, by the end of the turn. */
  push(a: A, b: B, c: C, d: D, e: E): void;
  /** Writes everything queued now (before a connection changes hands, say). */
  flush(): void;
}

/** Slots one waiting answer takes in the flat queue. */
const SLOTS = 5;

/**
 * A batch whose entries `write` turns into socket writes. Entries sit flat in one array, five
 * slots each, so queuing one makes no object of its own. If `write` throws, `onError` gets the
 * error and the entry, and the rest of the batch still goes out.
 */
export const createTurnBatch = <A, B, C, D, E>(
  write: (a: A, b: B, c: C, d: D, e: E) => void,
  onError: (err: unknown, a: A, b: B, c: C) => void,
): TurnBatch<A, B, C, D, E> => {
  let pending: unknown[] = [];
  const flush = (): void => {
    const batch = pending;
    pending = [];
    for (let i = 0; i < batch.length; i += SLOTS) {
      const a = batch[i] as A;
      const b = batch[i + 1] as B;
      const c = batch[i + 2] as C;
      try {
        write(a, b, c, batch[i + 3] as D, batch[i + 4] as E);
      } catch (err) {
        onError(err, a, b, c);
      }
    }
  };
  return {
    push: (a, b, c, d, e) => {
      if (pending.length === 0) setImmediate(flush);
      pending.push(a, b, c, d, e);
      if (pending.length === MAX_TURN_BATCH * SLOTS) flush();
    },
    flush,
  };
};
