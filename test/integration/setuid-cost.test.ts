import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { after, before, describe, it } from 'node:test';
import { Agent, request } from 'undici';
import { decodeUidsCookie } from '../../src/usersync/uids-cookie.js';
import { startServerProcess } from '../support/server-process.js';
import type { ServerProcess } from '../support/server-process.js';

/*
 * What one `GET /setuid` costs the server when the caller's `uids` cookie holds 300 short ids and
 * `host_cookie.max_cookie_size_bytes` makes it drop most of them: CPU time of the real server
 * process (bin/openbid), read from /proc, over many requests. Re-encoding the cookie after each
 * dropped id cost ~65 ms a request; fitting it once costs well under a millisecond.
 */

/**
 * Rounds of requests measured, and requests in each. The figure is the best round's: other
 * processes on a busy machine only add to a round's CPU time (a shared core's caches, the
 * scheduler), never take from it, and the test suite runs beside other test files.
 */
const ROUNDS = 7;
const PER_ROUND = 50;
/** Enough for the route's code to be optimized: the first hundred requests cost two to five times more. */
const WARM_UP = 250;
/** The bound: CPU per request. */
const MAX_CPU_MS_PER_REQUEST = 2;

/** CPU seconds (user + system) the process has used so far: utime and stime of /proc/<pid>/stat, in clock ticks of 1/100 s. */
const cpuSeconds = (pid: number): number => {
  const fields = readFileSync(`/proc/${pid}/stat`, 'utf8').split(') ')[1]!.split(' ');
  return (Number(fields[11]) + Number(fields[12])) / 100;
};

/**
 * 300 families of two letters, each id empty with a year-only expiry (read as Jan 1 of that year,
 * all long past, in a spread of years so the drop order is a real sort): the most ids a 16 KiB
 * request head carries. Written, each entry grows to a full RFC 3339 time.
 */
const attackerCookie = (): string => {
  const temp: Record<string, { uid: string; expires: string }> = {};
  for (let i = 0; i < 300; i++) {
    const family = String.fromCharCode(97 + Math.floor(i / 26), 97 + (i % 26));
    temp[family] = { uid: '', expires: String(2001 + ((i * 7) % 20)) };
  }
  const b64 = Buffer.from(JSON.stringify({ tempUIDs: temp })).toString('base64url');
  return `uids=${b64}${'='.repeat((4 - (b64.length % 4)) % 4)}`;
};

let server: ServerProcess;
const agent = new Agent({ connections: 2 });

before(async () => {
  server = await startServerProcess({ host_cookie: { max_cookie_size_bytes: 4096 }, logging: { level: 'warn' } });
});
after(async () => {
  server.proc.kill('SIGKILL');
  await server.exited;
  await agent.close();
});

const setuid = async (cookie: string): Promise<string> => {
  const res = await request(`${server.baseUrl}/setuid?bidder=pubmatic&uid=new-id&gdpr=0`, { headers: { cookie }, dispatcher: agent });
  await res.body.text();
  assert.equal(res.statusCode, 200);
  const setCookie = res.headers['set-cookie'];
  assert.equal(typeof setCookie, 'string');
  return setCookie as string;
};

describe('GET /setuid with a 300-id cookie over max_cookie_size_bytes', () => {
  it(`costs the server under ${MAX_CPU_MS_PER_REQUEST} ms of CPU a request (the best of ${ROUNDS} rounds of ${PER_ROUND})`, { timeout: 120_000 }, async (t) => {
    const cookie = attackerCookie();
    assert.ok(cookie.length < 14_000, `the cookie fits a request head: ${cookie.length} bytes`);
    // The answer: within the limit, the new id kept, most of the 300 dropped.
    const written = await setuid(cookie);
    assert.ok(Buffer.byteLength(written) <= 4096, `${Buffer.byteLength(written)} bytes`);
    const kept = decodeUidsCookie(/^uids=([^;]*)/.exec(written)![1]);
    assert.equal(kept.uids.get('pubmatic')?.uid, 'new-id');
    assert.ok(kept.uids.size > 10 && kept.uids.size < 150, `${kept.uids.size} ids kept`);

    const pid = server.proc.pid!;
    /** Sends `n` requests, two at a time as two connections would; the server's CPU ms per request. */
    const cost = async (n: number): Promise<number> => {
      const before = cpuSeconds(pid);
      for (let i = 0; i < n; i += 2) await Promise.all([setuid(cookie), setuid(cookie)]);
      return ((cpuSeconds(pid) - before) * 1000) / n;
    };
    // The first requests, code not yet optimized, cost a few ms; ten times the bound is no warm-up (~65 ms re-encoding per dropped id).
    const first = await cost(PER_ROUND);
    assert.ok(first < 10 * MAX_CPU_MS_PER_REQUEST, `CPU ms per request while warming up: ${first.toFixed(1)}`);
    await cost(WARM_UP - PER_ROUND);
    const rounds: number[] = [];
    for (let round = 0; round < ROUNDS; round++) rounds.push(await cost(PER_ROUND));
    rounds.sort((a, b) => a - b);
    const best = rounds[0]!;
    const figures = `CPU ms per request, rounds: ${rounds.map((r) => r.toFixed(2)).join(', ')}`;
    t.diagnostic(figures);
    assert.ok(best < MAX_CPU_MS_PER_REQUEST, figures);
  });
});
