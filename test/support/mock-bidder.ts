import { createServer } from 'node:http';
import type { IncomingMessage, Server, ServerResponse } from 'node:http';
import { gunzipSync, gzipSync } from 'node:zlib';

/** How a mock bidder answers every request it gets. */
export interface MockBidderSpec {
  /** Default 200. */
  readonly status?: number;
  /** A string is sent as is; anything else as its JSON text. Absent: an empty body. */
  readonly body?: unknown;
  readonly headers?: Record<string, string>;
  /** Wait this long before answering. */
  readonly delayMs?: number;
  /** Never answer (the exchange must give up at its deadline). */
  readonly hang?: boolean;
  /** Send the body gzip-compressed with `Content-Encoding: gzip`. */
  readonly gzip?: boolean;
}

export interface ReceivedRequest {
  readonly method: string;
  readonly url: string;
  readonly headers: IncomingMessage['headers'];
  /** The body as text: decompressed when it came with `Content-Encoding: gzip`. */
  readonly body: string;
  /** The body's bytes as they came on the wire. */
  readonly raw: Buffer;
}

/** A real HTTP bidder on 127.0.0.1 that answers per its spec and remembers what it received. */
export interface MockBidder {
  readonly url: string;
  readonly received: ReceivedRequest[];
  /** Replaces the spec for the requests that follow. */
  answerWith(spec: MockBidderSpec): void;
  close(): Promise<void>;
}

/** The body as text; a body that claims gzip but is not is kept as sent (the test's assertions then fail). */
const textOf = (raw: Buffer, gzipped: boolean): string => {
  if (!gzipped) return raw.toString('utf8');
  try {
    return gunzipSync(raw).toString('utf8');
  } catch {
    return raw.toString('utf8');
  }
};

export const startMockBidder = async (initial: MockBidderSpec = {}): Promise<MockBidder> => {
  let spec = initial;
  const received: ReceivedRequest[] = [];
  const hanging = new Set<ServerResponse>();
  const server: Server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      const raw = Buffer.concat(chunks);
      const gzipped = String(req.headers['content-encoding'] ?? '').toLowerCase() === 'gzip';
      received.push({ method: req.method ?? '', url: req.url ?? '', headers: req.headers, body: textOf(raw, gzipped), raw });
      const current = spec;
      if (current.hang === true) {
        hanging.add(res);
        return;
      }
      const answer = () => {
        const text = current.body === undefined ? '' : typeof current.body === 'string' ? current.body : JSON.stringify(current.body);
        const body = current.gzip === true ? gzipSync(text) : Buffer.from(text);
        res.writeHead(current.status ?? 200, {
          'content-type': 'application/json',
          ...(current.gzip === true ? { 'content-encoding': 'gzip' } : {}),
          ...current.headers,
          'content-length': String(body.length),
        });
        res.end(body);
      };
      if (current.delayMs !== undefined && current.delayMs > 0) setTimeout(answer, current.delayMs);
      else answer();
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const address = server.address();
  const port = typeof address === 'object' && address !== null ? address.port : 0;
  return {
    url: `http://127.0.0.1:${port}/`,
    received,
    answerWith: (next) => {
      spec = next;
    },
    close: async () => {
      for (const res of hanging) res.destroy();
      server.closeAllConnections();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
};
