import { mkdtempSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { compare } from './lib/compare.js';
import type { CompareOptions, ComparisonResult } from './lib/compare.js';
import { referenceLoads, startOpenbid, startReferences } from './lib/servers.js';

/** GET /event (f=b) with the file analytics module writing every event, against bare node:http. */
export const eventSuite = async (opts: CompareOptions & { connections: number }): Promise<ComparisonResult[]> => {
  const path = join(mkdtempSync(join(tmpdir(), 'openbid-bench-events-')), 'events.jsonl');
  const refs = await startReferences(0);
  const openbid = await startOpenbid({ analytics: { file: { path } } });
  try {
    const query = '/event?t=imp&b=bid-1&a=acc-1&bidder=appnexus&f=b&ts=1700000000000';
    const check = await fetch(`${openbid.url}${query}`);
    if (check.status !== 200) throw new Error(`/event answered ${check.status}`);
    const common = { seconds: opts.seconds, connections: opts.connections };
    const result = await compare(
      { name: 'GET /event f=b, file analytics on', target: 0.8, ...referenceLoads(refs, (origin) => ({ ...common, url: `${origin}${query}` })), openbid: { ...common, url: `${openbid.url}${query}` } },
      opts,
    );
    await openbid.stop();
    // The module really wrote: after shutdown the file holds the events of every round.
    if (statSync(path).size === 0) throw new Error('the file analytics module wrote nothing');
    return [result];
  } finally {
    await openbid.stop();
    await refs.stop();
  }
};
