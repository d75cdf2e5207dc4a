import { RESP_TYPES, createClient } from 'redis';
import type { KeyValueEntry } from '../key-value-store.js';

/** The few commands the store uses, with bulk-string replies as Buffers; same shape on a node or a cluster. */
export interface Commands {
  get(key: string): Promise<Buffer | null>;
  set(key: string, value: Buffer, options: { EX: number; NX?: true }): Promise<unknown>;
  del(key: string): Promise<number>;
  eval(script: string, options: { keys: string[]; arguments: Buffer[] }): Promise<unknown>;
}

/** Writes every entry in one `MULTI`/`EXEC`; the replies in entry order. */
export type Transaction = (entries: readonly KeyValueEntry[], createOnly: boolean) => Promise<unknown[]>;

export const BINARY = { [RESP_TYPES.BLOB_STRING]: Buffer } as const;

export interface RedisAuth {
  readonly username?: string;
  readonly password?: string;
}

/** node-redis socket options shared by every connection the stores open. */
export interface RedisSocketOptions {
  readonly connectTimeout: number;
  readonly reconnectStrategy: (retries: number) => number;
  readonly tls?: true;
}

export interface NodeLinkOptions {
  readonly host: string;
  readonly port: number;
  readonly auth: RedisAuth;
  readonly database?: number;
  readonly socket: RedisSocketOptions;
  /** Connection errors (the link reconnects by itself); never thrown. */
  readonly onError: (err: unknown) => void;
  /** Each time the connection is (again) ready for commands. */
  readonly onReady: () => void;
}

/** One node-redis connection to one Redis server. */
export interface NodeLink {
  readonly commands: Commands;
  readonly transaction: Transaction;
  /** Whether commands would be sent now (while not, they fail at once). */
  isReady(): boolean;
  /** Waits up to a second for replies still due, then drops the connection. */
  close(): Promise<void>;
  /** Drops the connection at once; replies still due fail. */
  destroy(): void;
}

/**
 * Opens a connection to one server that reconnects on its own and, while disconnected, fails
 * calls at once instead of queueing them (an offline queue would grow without bound during an
 * outage).
 */
export const openNodeLink = (opts: NodeLinkOptions): NodeLink => {
  const client = createClient({
    ...opts.auth,
    ...(opts.database !== undefined ? { database: opts.database } : {}),
    socket: { ...opts.socket, host: opts.host, port: opts.port },
    disableOfflineQueue: true,
  });
  client.on('error', opts.onError);
  client.on('ready', opts.onReady);
  client.connect().catch(opts.onError);
  const binary = client.withTypeMapping(BINARY);
  const destroy = (): void => {
    if (client.isOpen) client.destroy();
  };
  return {
    commands: binary,
    transaction: async (entries, createOnly) => {
      const tx = binary.multi();
      for (const e of entries) tx.set(e.key, e.value, createOnly ? { EX: e.ttlSeconds, NX: true } : { EX: e.ttlSeconds });
      return await tx.exec();
    },
    isReady: () => client.isReady,
    // close() waits for replies still due; a hung server gets a second to answer, then the socket goes.
    close: () => withinMs(client.close(), 1000).catch(destroy),
    destroy,
  };
};

/** `host:port` (the last colon splits, so a bare IPv6 address works). */
export const parseHostPort = (node: string): { host: string; port: number } => {
  const at = node.lastIndexOf(':');
  return { host: node.slice(0, at), port: Number(node.slice(at + 1)) };
};

/** `promise`, or a rejection once `ms` have passed; the timer never holds the process open. */
export const withinMs = <T>(promise: Promise<T>, ms: number): Promise<T> =>
  new Promise<T>((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(`no answer within ${ms} ms`)), ms);
    timer.unref();
    promise.then(
      (v) => {
        clearTimeout(timer);
        resolve(v);
      },
      (err: unknown) => {
        clearTimeout(timer);
        reject(err instanceof Error ? err : new Error(String(err)));
      },
    );
  });
