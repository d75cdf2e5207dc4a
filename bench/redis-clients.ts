// Compares ioredis and node-redis on the calls the cache makes (GET of 1 KB, SET EX NX of 1 KB),
// with 64 callers in flight, against one local redis-server. Prints operations per second and
// client CPU per operation. Run: node --import tsx bench/redis-clients.ts
import { randomUUID } from 'node:crypto';
import { Redis } from 'ioredis';
import { RESP_TYPES, createClient } from 'redis';
import { startRedis } from '../test/support/redis.js';

const OPS = 200_000;
const CALLERS = 64;
const value = Buffer.alloc(1024, 'x');

const measure = async (name: string, op: (i: number) => Promise<unknown>): Promise<void> => {
  let next = 0;
  const cpu0 = process.cpuUsage();
  const t0 = performance.now();
  await Promise.all(Array.from({ length: CALLERS }, async () => {
    while (next < OPS) await op(next++);
  }));
  const seconds = (performance.now() - t0) / 1000;
  const cpu = process.cpuUsage(cpu0);
  console.log(`${name.padEnd(24)} ${Math.round(OPS / seconds).toLocaleString('en-US').padStart(8)} ops/s   client cpu ${((cpu.user + cpu.system) / OPS).toFixed(1)} us/op`);
};

const redis = await startRedis();
try {
  const key = 'bench-get';
  const io = new Redis(redis.port, '127.0.0.1', { enableAutoPipelining: true });
  await io.set(key, value);
  const ioPlain = new Redis(redis.port, '127.0.0.1', { enableAutoPipelining: false });
  const nrClient = createClient({ socket: { port: redis.port, host: '127.0.0.1' } });
  await nrClient.connect();
  const nr = nrClient.withTypeMapping({ [RESP_TYPES.BLOB_STRING]: Buffer });
  for (let round = 1; round <= 2; round++) {
    await measure(`ioredis GET (${round})`, () => io.getBuffer(key));
    await measure(`ioredis no-pipe GET (${round})`, () => ioPlain.getBuffer(key));
    await measure(`node-redis GET (${round})`, () => nr.get(key));
    await measure(`ioredis SET NX (${round})`, () => io.set(randomUUID(), value, 'EX', 60, 'NX'));
    await measure(`ioredis no-pipe SET NX (${round})`, () => ioPlain.set(randomUUID(), value, 'EX', 60, 'NX'));
    await measure(`node-redis SET NX (${round})`, () => nr.set(randomUUID(), value, { EX: 60, NX: true }));
  }
  io.disconnect();
  ioPlain.disconnect();
  await nrClient.quit();
} finally {
  await redis.stop();
}
