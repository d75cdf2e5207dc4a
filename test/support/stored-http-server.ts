import { createServer } from 'node:http';
import type { IncomingMessage, ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';

/**
 * A stored-data service on 127.0.0.1 speaking Prebid Server's HTTP fetcher protocol
 * (`?request-ids=[..]&imp-ids=[..]` → `{"requests":{..},"imps":{..}}`, `?account-ids=[..]` →
 * `{"accounts":{..}}`), serving what the test puts in its maps. `mode` makes it misbehave.
 */
export interface StoredHttpServer {
  readonly endpoint: string;
  readonly requests: Map<string, unknown>;
  readonly imps: Map<string, unknown>;
  readonly accounts: Map<string, unknown>;
  /** Query strings received, in order. */
  readonly calls: string[];
  /** `ok`; `hang`: never answers; `error`: 500; `garbage`: 200 with a body that is not JSON. */
  mode: 'ok' | 'hang' | 'error' | 'garbage';
  close(): Promise<void>;
}

/** `maxHeaderSize`: node:http's limit on a request head (16 KiB by default); raise it to take huge ids in the query. */
export const startStoredHttpServer = async (opts: { maxHeaderSize?: number } = {}): Promise<StoredHttpServer> => {
  const requests = new Map<string, unknown>();
  const imps = new Map<string, unknown>();
  const accounts = new Map<string, unknown>();
  const calls: string[] = [];
  const hanging = new Set<ServerResponse>();
  const state: { mode: StoredHttpServer['mode'] } = { mode: 'ok' };

  const ids = (params: URLSearchParams, name: string): string[] => {
    const raw = params.get(name);
    return raw === null ? [] : (JSON.parse(raw) as string[]);
  };
  const pick = (from: Map<string, unknown>, wanted: string[]) => Object.fromEntries(wanted.filter((id) => from.has(id)).map((id) => [id, from.get(id)]));

  const server = createServer({ ...(opts.maxHeaderSize === undefined ? {} : { maxHeaderSize: opts.maxHeaderSize }) }, (req: IncomingMessage, res: ServerResponse) => {
    const url = new URL(req.url ?? '/', 'http://localhost');
    calls.push(url.search);
    if (state.mode === 'hang') {
      hanging.add(res);
      return;
    }
    if (state.mode === 'error') return void res.writeHead(500).end('boom');
    if (state.mode === 'garbage') return void res.writeHead(200, { 'content-type': 'application/json' }).end('{"requests": ');
    const p = url.searchParams;
    const body = p.has('account-ids')
      ? { accounts: pick(accounts, ids(p, 'account-ids')) }
      : // Prebid Server's services answer null for an id they do not have.
        { requests: { ...pick(requests, ids(p, 'request-ids')), ...Object.fromEntries(ids(p, 'request-ids').filter((id) => !requests.has(id)).map((id) => [id, null])) }, imps: pick(imps, ids(p, 'imp-ids')) };
    res.writeHead(200, { 'content-type': 'application/json' }).end(JSON.stringify(body));
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    endpoint: `http://127.0.0.1:${port}/stored`,
    requests,
    imps,
    accounts,
    calls,
    get mode() {
      return state.mode;
    },
    set mode(m) {
      state.mode = m;
    },
    close: async () => {
      for (const res of hanging) res.destroy();
      server.closeAllConnections();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
};
