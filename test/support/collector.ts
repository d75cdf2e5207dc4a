import { createServer } from 'node:http';
import type { IncomingMessage, ServerResponse } from 'node:http';

export interface Collector {
  readonly url: string;
  /** Every request body received, parsed as JSON, in arrival order (failed attempts included). */
  readonly received: unknown[][];
  /** How the next requests are answered: a status, or 'hang' (never answer). */
  respondWith(plan: (attempt: number) => number | 'hang'): void;
  close(): Promise<void>;
}

/** A real HTTP server on 127.0.0.1 that collects analytics batches and answers as told. */
export const startCollector = async (): Promise<Collector> => {
  const received: unknown[][] = [];
  let plan: (attempt: number) => number | 'hang' = () => 200;
  const hanging = new Set<ServerResponse>();
  const server = createServer((req: IncomingMessage, res: ServerResponse) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      received.push(JSON.parse(Buffer.concat(chunks).toString('utf8')) as unknown[]);
      const answer = plan(received.length);
      if (answer === 'hang') {
        hanging.add(res);
        return;
      }
      res.writeHead(answer).end();
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const address = server.address();
  const port = typeof address === 'object' && address !== null ? address.port : 0;
  return {
    url: `http://127.0.0.1:${port}/collect`,
    received,
    respondWith: (p) => {
      plan = p;
    },
    close: async () => {
      for (const res of hanging) res.destroy();
      server.closeAllConnections();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
};
