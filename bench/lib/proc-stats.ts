// What a bench server costs, read from outside it: CPU time from /proc, heap allocation from the
// alloc probe (alloc-probe.mjs) preloaded into it.
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';

const clockTicks = 100; // USER_HZ: 100 on every Linux the bench runs on (`getconf CLK_TCK`).

/** CPU seconds (user + system) one process has used so far, from /proc/<pid>/stat. */
const ownCpuSeconds = (pid: number): number => {
  const fields = readFileSync(`/proc/${pid}/stat`, 'utf8').split(') ')[1]!.split(' ');
  // utime and stime are fields 14 and 15 of stat, 12 and 13 after the command name.
  return (Number(fields[11]) + Number(fields[12])) / clockTicks;
};

/** The process's live children (a cluster primary's workers), from /proc/<pid>/task/<pid>/children. */
export const childPids = (pid: number): number[] => {
  const file = `/proc/${pid}/task/${pid}/children`;
  if (!existsSync(file)) return [];
  return readFileSync(file, 'utf8').trim().split(/\s+/).filter(Boolean).map(Number);
};

/**
 * CPU seconds used so far by a process and its descendants alive now (a cluster primary and its
 * workers). A worker that died since the last reading takes its seconds with it; the benches
 * check that none did (the worker count is the same before and after a load).
 */
export const cpuSeconds = (pid: number): number => ownCpuSeconds(pid) + childPids(pid).reduce((sum, child) => sum + cpuSeconds(child), 0);

/**
 * Bytes the process has allocated on its V8 heap since it started, as the alloc probe counts them
 * (`dir` is its OPENBID_BENCH_ALLOC_DIR): signals it and waits (at most 5 s) for the new reading.
 */
export const allocatedBytes = async (dir: string, pid: number): Promise<number> => {
  const file = join(dir, `${pid}.json`);
  const read = (): { seq: number; allocatedBytes: number } => (existsSync(file) ? (JSON.parse(readFileSync(file, 'utf8')) as { seq: number; allocatedBytes: number }) : { seq: 0, allocatedBytes: 0 });
  const before = read().seq;
  process.kill(pid, 'SIGUSR2');
  for (let i = 0; i < 500; i++) {
    const now = read();
    if (now.seq > before) return now.allocatedBytes;
    await sleep(10);
  }
  throw new Error(`process ${pid} gave no allocation reading in 5 s: is alloc-probe.mjs preloaded?`);
};
