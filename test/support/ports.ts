import type { Server as HttpServer } from 'node:http';
import { createServer } from 'node:net';

/** A TCP port on 127.0.0.1 that was free a moment ago. */
export const freePort = (): Promise<number> =>
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

/** Polls `check` every 25 ms until it resolves true, or fails after `timeoutMs`. */
export const waitFor = async (what: string, check: () => Promise<boolean>, timeoutMs = 10_000): Promise<void> => {
  const until = Date.now() + timeoutMs;
  for (;;) {
    try {
      if (await check()) return;
    } catch {
      // not yet
    }
    if (Date.now() > until) throw new Error(`timed out after ${timeoutMs} ms waiting for ${what}`);
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
