// zlib on the event loop against zlib's thread pool, for the bodies bidder calls compress and the
// answers they inflate (`src/auction/backends/undici-bidder-http.ts` picks between the two by
// size). CPU µs per call of the whole process (process.cpuUsage counts the pool's threads too),
// the pool's calls 8 at a time as concurrent auctions make them. In this process, no network.
import { promisify } from 'node:util';
import { gunzip, gunzipSync, gzip, gzipSync } from 'node:zlib';
import { realAdaptersBody } from './lib/auction-fixtures.js';

const gzipInPool = promisify(gzip);
const gunzipInPool = promisify(gunzip);
/** Calls measured per size: enough for ~0.2 s of work on the smallest. */
const callsFor = (bytes: number): number => Math.max(400, Math.min(4000, Math.round(4e6 / bytes)));
const IN_FLIGHT = 8;
const counted = (n: number, noun: string): string => `${n} ${noun}${n === 1 ? '' : 's'}`;

const cpuMicros = (before: NodeJS.CpuUsage): number => {
  const used = process.cpuUsage(before);
  return used.user + used.system;
};

const onLoop = (work: () => unknown, calls: number): number => {
  for (let i = 0; i < calls / 10; i++) work();
  const before = process.cpuUsage();
  for (let i = 0; i < calls; i++) work();
  return cpuMicros(before) / calls;
};

const inPool = async (work: () => Promise<unknown>, calls: number): Promise<number> => {
  for (let i = 0; i < calls / 10; i += IN_FLIGHT) await Promise.all(Array.from({ length: IN_FLIGHT }, work));
  const before = process.cpuUsage();
  for (let i = 0; i < calls; i += IN_FLIGHT) await Promise.all(Array.from({ length: IN_FLIGHT }, work));
  return cpuMicros(before) / calls;
};

/** A bidder's answer of `bids` banner bids, each with its own 0.5 KB creative. */
const answerOf = (bids: number): Buffer =>
  Buffer.from(
    JSON.stringify({
      id: 'r',
      cur: 'USD',
      seatbid: [{ bid: Array.from({ length: bids }, (_, i) => ({ id: `b${i}`, impid: `imp-${i}`, price: 0.5, adm: `<div>${`${i} creative `.repeat(48)}</div>`, crid: `cr-${i}`, w: 300, h: 250 })) }],
    }),
  );

export interface ZlibRow {
  readonly what: string;
  readonly bytes: number;
  readonly loopMicros: number;
  readonly poolMicros: number;
}

export const zlibSuite = async (): Promise<ZlibRow[]> => {
  const rows: ZlibRow[] = [];
  for (const imps of [1, 5, 20, 50, 200]) {
    const body = Buffer.from(realAdaptersBody(imps));
    const calls = callsFor(body.length);
    rows.push({ what: `gzip a request of ${counted(imps, 'imp')}`, bytes: body.length, loopMicros: onLoop(() => gzipSync(body), calls), poolMicros: await inPool(() => gzipInPool(body), calls) });
  }
  for (const bids of [1, 5, 20, 100]) {
    const answer = answerOf(bids);
    const zipped = gzipSync(answer);
    const calls = callsFor(answer.length);
    rows.push({ what: `gunzip an answer of ${counted(bids, 'bid')}`, bytes: answer.length, loopMicros: onLoop(() => gunzipSync(zipped), calls), poolMicros: await inPool(() => gunzipInPool(zipped), calls) });
  }
  return rows;
};

export const formatZlib = (rows: readonly ZlibRow[]): string =>
  [
    '| work | bytes (inflated) | event loop CPU µs/call | thread pool CPU µs/call | pool / loop |',
    '| --- | --- | --- | --- | --- |',
    ...rows.map((r) => `| ${r.what} | ${r.bytes.toLocaleString('en-US')} | ${r.loopMicros.toFixed(0)} | ${r.poolMicros.toFixed(0)} | ${(r.poolMicros / r.loopMicros).toFixed(1)} |`),
  ].join('\n');
