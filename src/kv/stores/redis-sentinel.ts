import { createClient } from 'redis';
import { AppError, ErrorCode } from '../../core/app-error.js';
import type { Logger } from '../../core/logger.js';
import { withinMs } from './redis-node.js';
import type { Commands, NodeLink, Transaction } from './redis-node.js';

/** While the master is unreachable, the sentinels are asked this often for a new one. */
const SEEK_INTERVAL_MS = 250;
/** While the master answers, the sentinels are still asked this often (a demoted master may answer). */
const STEADY_INTERVAL_MS = 5000;

export interface SentinelFollowerOptions {
  /** The master's name as the sentinels monitor it. */
  readonly masterName: string;
  /** The sentinels, asked in this order until one answers. */
  readonly sentinels: readonly { host: string; port: number }[];
  /** The sentinels' own password; none when undefined. */
  readonly sentinelPassword?: string;
  /** Connect and answer budget of each question to a sentinel. */
  readonly askTimeoutMs: number;
  /** Opens a reconnecting connection to the master at an address; `onDown` when it drops. */
  readonly openMaster: (host: string, port: number, onDown: () => void) => NodeLink;
  readonly onError: (err: unknown) => void;
  readonly logger: Logger;
}

/** The store's commands on whichever server the sentinels name master right now. */
export interface SentinelFollower {
  readonly commands: Commands;
  readonly transaction: Transaction;
  /** Stops asking and closes the master connection. Idempotent. */
  close(): Promise<void>;
}

const noMaster = (): AppError => new AppError(ErrorCode.BACKEND_FAILURE, 'redis: no master known yet (sentinels not answering)');

/**
 * Follows a Redis master through Sentinel failovers. It asks the sentinels for the master's
 * address (`SENTINEL GET-MASTER-ADDR-BY-NAME`), keeps one ordinary connection to it, and when
 * that connection drops asks every 250 ms until a sentinel names a different server (a
 * promoted replica), then moves to it. Until then commands fail at once, as on a single node
 * that is down: a failover costs 503s for its length, never requests that hang.
 *
 * Not node-redis's `createSentinel`: with the master gone, its commands retry in a loop (re-asking
 * a sentinel on each turn) until a new master is connected, so a call could only end by our own
 * timeout (504) while the loop went on in the background, and the sentinels got a new connection
 * per turn.
 */
export const followSentinelMaster = (opts: SentinelFollowerOptions): SentinelFollower => {
  let master: { host: string; port: number; link: NodeLink } | undefined;
  let closed = false;
  let asking = false;
  let timer: NodeJS.Timeout | undefined;

  const ask = async (node: { host: string; port: number }): Promise<{ host: string; port: number } | undefined> => {
    const client = createClient({
      socket: { host: node.host, port: node.port, connectTimeout: opts.askTimeoutMs, reconnectStrategy: false },
      ...(opts.sentinelPassword ? { password: opts.sentinelPassword } : {}),
      disableOfflineQueue: true,
    });
    client.on('error', () => undefined);
    try {
      await withinMs(client.connect(), opts.askTimeoutMs);
      const reply = await withinMs(client.sendCommand(['SENTINEL', 'GET-MASTER-ADDR-BY-NAME', opts.masterName]), opts.askTimeoutMs);
      if (!Array.isArray(reply) || reply.length !== 2) return undefined;
      return { host: String(reply[0]), port: Number(reply[1]) };
    } finally {
      if (client.isOpen) client.destroy();
    }
  };

  const askSentinels = async (): Promise<{ host: string; port: number } | undefined> => {
    for (const node of opts.sentinels) {
      try {
        const addr = await ask(node);
        if (addr !== undefined) return addr;
      } catch (err) {
        opts.onError(new Error(`sentinel ${node.host}:${node.port}: ${(err as Error).message}`));
      }
    }
    return undefined;
  };

  const schedule = (): void => {
    if (closed) return;
    clearTimeout(timer);
    timer = setTimeout(() => void check(), master?.link.isReady() ? STEADY_INTERVAL_MS : SEEK_INTERVAL_MS);
    timer.unref();
  };

  const check = async (): Promise<void> => {
    if (closed || asking) return;
    asking = true;
    try {
      const addr = await askSentinels();
      if (closed || addr === undefined || (addr.host === master?.host && addr.port === master.port)) return;
      const old = master;
      master = { ...addr, link: opts.openMaster(addr.host, addr.port, wake) };
      if (old === undefined) opts.logger.info({ master: `${addr.host}:${addr.port}` }, 'redis sentinel: connecting to the master');
      else opts.logger.warn({ master: `${addr.host}:${addr.port}`, previous: `${old.host}:${old.port}` }, 'redis sentinel: the master moved; following it');
      old?.link.destroy();
    } finally {
      asking = false;
      schedule();
    }
  };

  // The master dropped, or refused a write as a replica: ask now rather than at the next tick.
  function wake(): void {
    if (closed || asking) return;
    clearTimeout(timer);
    void check();
  }

  const current = (): NodeLink => {
    if (master === undefined) throw noMaster();
    return master.link;
  };
  // A write refused with READONLY went to a demoted master the sentinels no longer name.
  const watchReadonly = <T>(call: Promise<T>): Promise<T> =>
    call.catch((err: unknown) => {
      if (err instanceof Error && err.message.startsWith('READONLY')) wake();
      throw err;
    });

  void check();
  return {
    commands: {
      get: (key) => current().commands.get(key),
      set: (key, value, options) => watchReadonly(current().commands.set(key, value, options)),
      del: (key) => watchReadonly(current().commands.del(key)),
      eval: (script, options) => watchReadonly(current().commands.eval(script, options)),
    },
    transaction: (entries, createOnly) => watchReadonly(current().transaction(entries, createOnly)),
    close: async () => {
      if (closed) return;
      closed = true;
      clearTimeout(timer);
      await master?.link.close();
    },
  };
};
