import { compare } from './lib/compare.js';
import type { CompareOptions, ComparisonResult } from './lib/compare.js';
import { referenceLoads, startOpenbid, startReferences } from './lib/servers.js';

const API_KEY = 'bench-key';

/** GET /storage of a 1 KB text entry on a memory application, against bare node:http. */
export const storageSuite = async (opts: CompareOptions & { connections: number }): Promise<ComparisonResult[]> => {
  const value = 'x'.repeat(1024);
  const refs = await startReferences(1024 + 40);
  const openbid = await startOpenbid({ api: { 'api-key': API_KEY }, storage: { memory: { bench: {} } } });
  try {
    const headers = { 'x-svc-api-key': API_KEY };
    const written = await fetch(`${openbid.url}/storage`, {
      method: 'POST',
      headers,
      body: JSON.stringify({ key: 'module.bench.k1', value, type: 'text', application: 'bench', ttlseconds: 3600 }),
    });
    if (written.status !== 204) throw new Error(`storage write answered ${written.status}`);
    const path = '/storage?application=bench&key=module.bench.k1';
    const check = (await (await fetch(`${openbid.url}${path}`, { headers })).json()) as { value: string };
    if (check.value !== value) throw new Error('stored value does not read back');
    const common = { seconds: opts.seconds, connections: opts.connections };
    return [
      await compare(
        { name: 'GET /storage 1 KB text (memory)', target: 0.8, ...referenceLoads(refs, (origin) => ({ ...common, url: `${origin}${path}` })), openbid: { ...common, url: `${openbid.url}${path}`, headers } },
        opts,
      ),
    ];
  } finally {
    await openbid.stop();
    await refs.stop();
  }
};
