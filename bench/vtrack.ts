import { vastOfSize } from './cache.js';
import { compare } from './lib/compare.js';
import type { CompareOptions, ComparisonResult } from './lib/compare.js';
import { referenceLoads, startOpenbid, startReferences } from './lib/servers.js';

/** POST /vtrack with one 2 KB VAST put (tag inserted, cached in memory), against bare node:http. */
export const vtrackSuite = async (opts: CompareOptions & { connections: number }): Promise<ComparisonResult[]> => {
  const refs = await startReferences(0);
  const openbid = await startOpenbid({});
  try {
    const value = vastOfSize(2048).replace('</AdTitle>', '</AdTitle><Impression><![CDATA[https://a.example/i]]></Impression>');
    const body = JSON.stringify({ puts: [{ bidid: 'bid-1', bidder: 'appnexus', type: 'xml', value, aid: 'auction-1', timestamp: 1700000000000, ttlseconds: 300 }] });
    const check = await fetch(`${openbid.url}/vtrack?a=acc-1`, { method: 'POST', body });
    if (check.status !== 200) throw new Error(`/vtrack answered ${check.status}: ${await check.text()}`);
    const uuid = ((await check.json()) as { responses: { uuid: string }[] }).responses[0]?.uuid ?? '';
    if (!(await (await fetch(`${openbid.url}/cache?uuid=${uuid}`)).text()).includes('/event?t=imp&b=bid-1')) throw new Error('no impression tag inserted');
    const common = { seconds: opts.seconds, connections: opts.connections, method: 'POST' as const, body };
    return [
      await compare(
        { name: 'POST /vtrack one 2 KB VAST put (memory)', target: 0.6, ...referenceLoads(refs, (origin) => ({ ...common, url: `${origin}/vtrack?a=acc-1` })), openbid: { ...common, url: `${openbid.url}/vtrack?a=acc-1` } },
        opts,
      ),
    ];
  } finally {
    await openbid.stop();
    await refs.stop();
  }
};
