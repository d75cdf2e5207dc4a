import type { Server as HttpServer } from 'node:http';
import { createServer } from 'node:net';
import { scaled } from './time-bounds.js';

/**
 * Ports `freePort` handed out lately in this process. The kernel may offer the same ephemeral
 * port to two binds in a row once the first is closed, so a test asking for two ports (a public
 * and an admin one) could get one port twice; a port handed out lately is not handed out again.
 */
const recentlyGiven = new Set<number>();
const RECENT_LIMIT = 512;
const FREE_PORT_ATTEMPTS = 50;

const bindEphemeral = (): Promise<number> =>
  new Promise((resolve, reject) => {
    const srv = createServer();
    srv.unref();
    srv.on('error', reject);
    srv.listen(0, '127.0.0.1', () => {
      const address = srv.address();
      const port = typeof address === 'object' && address !== null ? address.port : 0;
      srv.close(() => resolve(port));
    });
  });

/** A TCP port on 127.0.0.1 that was free a moment ago, and not one this process was given lately. */
export const freePort = async (): Promise<number> => {
  for (let attempt = 0; attempt < FREE_PORT_ATTEMPTS; attempt++) {
    const port = await bindEphemeral();
    if (recentlyGiven.has(port)) continue;
    recentlyGiven.add(port);
    if (recentlyGiven.size > RECENT_LIMIT) recentlyGiven.delete(recentlyGiven.values().next().value as number);
    return port;
  }
  throw new Error(`no free port on 127.0.0.1 not handed out lately after ${FREE_PORT_ATTEMPTS} attempts`);
};

/** Runs `use` with a port of 127.0.0.1 that another listener holds (a port in use), and frees it after. */
export const withPortInUse = async <T>(use: (port: number) => Promise<T>): Promise<T> => {
  const holder = createServer();
  await new Promise<void>((resolve, reject) => {
    holder.once('error', reject);
    holder.listen(0, '127.0.0.1', resolve);
  });
  const address = holder.address();
  try {
    return await use(typeof address === 'object' && address !== null ? address.port : 0);
  } finally {
    holder.close();
  }
};

/**
 * Polls `check` every 25 ms until it resolves true, or fails after `timeoutMs` times
 * `OPENBID_TEST_TIME_FACTOR` (time-bounds.ts): for what must happen eventually, not for a
 * deadline a test asserts.
 */
export const waitFor = async (what: string, check: () => Promise<boolean>, timeoutMs = 10_000): Promise<void> => {
  const bound = scaled(timeoutMs);
  const until = Date.now() + bound;
  for (;;) {
    try {
      if (await check()) return;
    } catch {
      // not yet
    }
    if (Date.now() > until) throw new Error(`timed out after ${bound} ms waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 25));
  }
};

/** Starts `server` on a free 127.0.0.1 port; its base URL (`http://127.0.0.1:<port>`). */
export const listenLocal = async (server: HttpServer): Promise<string> => {
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const address = server.address();
  return `http://127.0.0.1:${typeof address === 'object' && address !== null ? address.port : 0}`;
};

/** Stops an HTTP server started for a test, dropping its kept-alive connections. */
export const closeServer = (server: HttpServer): Promise<void> => {
  server.closeAllConnections();
  return new Promise<void>((resolve) => server.close(() => resolve()));
};
