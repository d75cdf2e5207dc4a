import { startRedis } from '../test/support/redis.js';
import { compare } from './lib/compare.js';
import type { CompareOptions, ComparisonResult } from './lib/compare.js';
import { referenceLoads, startOpenbid, startReferences } from './lib/servers.js';

/** A VAST document of exactly `bytes` bytes. */
export const vastOfSize = (bytes: number): string => {
  const head = '<VAST version="3.0"><Ad id="1"><InLine><AdTitle>';
  const tail = '</AdTitle></InLine></Ad></VAST>';
  return head + 'x'.repeat(bytes - head.length - tail.length) + tail;
};

const TARGETS = { memory: { get: 0.85, post: 0.7 }, redis: { get: 0.6, post: 0.5 } } as const;

/** GET /cache of a 1 KB xml value and POST /cache with one 1 KB put, against bare node:http. */
export const cacheSuite = async (backend: 'memory' | 'redis', opts: CompareOptions & { connections: number }): Promise<ComparisonResult[]> => {
  const redis = backend === 'redis' ? await startRedis() : undefined;
  const refs = await startReferences(1024);
  const openbid = await startOpenbid(redis ? { cache: { backend: { type: 'redis', redis: { url: redis.url } } } } : {});
  try {
    const value = vastOfSize(1024);
    const body = JSON.stringify({ puts: [{ type: 'xml', value, ttlseconds: 300 }] });
    const seeded = await fetch(`${openbid.url}/cache`, { method: 'POST', body });
    const uuid = ((await seeded.json()) as { responses: { uuid: string }[] }).responses[0]?.uuid ?? '';
    const check = await fetch(`${openbid.url}/cache?uuid=${uuid}`);
    if ((await check.text()) !== value) throw new Error('seeded value does not read back');

    const common = { seconds: opts.seconds, connections: opts.connections };
    return [
      await compare(
        {
          name: `GET /cache 1 KB xml (${backend})`,
          target: TARGETS[backend].get,
          ...referenceLoads(refs, (origin) => ({ ...common, url: `${origin}/cache?uuid=${uuid}` })),
          openbid: { ...common, url: `${openbid.url}/cache?uuid=${uuid}` },
        },
        opts,
      ),
      await compare(
        {
          name: `POST /cache one 1 KB put (${backend})`,
          target: TARGETS[backend].post,
          ...referenceLoads(refs, (origin) => ({ ...common, url: `${origin}/cache`, method: 'POST' as const, body })),
          openbid: { ...common, url: `${openbid.url}/cache`, method: 'POST', body },
        },
        opts,
      ),
    ];
  } finally {
    await openbid.stop();
    await refs.stop();
    await redis?.stop();
  }
};
