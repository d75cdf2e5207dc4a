import { readFileSync, readdirSync } from 'node:fs';
import { loadavg } from 'node:os';

/*
 * What Linux's /proc says about a process: its state, parent, start time and CPU time. Used to
 * stop whole process trees, to tell whether a process is gone, and to say in a failed start
 * whether the process was starved of CPU or stuck. Elsewhere (no /proc) every answer is
 * "unknown" and callers fall back to what Node.js itself knows.
 */

export interface ProcStat {
  /** `R`, `S`, `D`, `T`, `Z`… (`Z`: exited, not yet reaped by its parent). */
  readonly state: string;
  readonly ppid: number;
  /** Clock ticks after boot: with the pid, names one process even if the pid is reused later. */
  readonly startTicks: number;
  /** User plus system CPU time, in clock ticks. */
  readonly cpuTicks: number;
}

/** Linux's USER_HZ: 100 on every architecture Node.js runs on. */
const TICKS_PER_SECOND = 100;

/** `/proc/<pid>/stat` parsed, or undefined when there is no such process (or no /proc). */
export const procStat = (pid: number): ProcStat | undefined => {
  let text: string;
  try {
    text = readFileSync(`/proc/${pid}/stat`, 'utf8');
  } catch {
    return undefined;
  }
  // The command name (field 2) may hold spaces and parentheses: the fields that follow start after the last ')'.
  const fields = text.slice(text.lastIndexOf(')') + 2).split(' ');
  const field = (n: number): number => Number(fields[n - 3]);
  return { state: fields[0] ?? '?', ppid: field(4), cpuTicks: field(14) + field(15), startTicks: field(22) };
};

/**
 * Whether the process `pid` (the one that started at `startTicks`, when given) has exited: no such
 * pid, a zombie, or the pid now names another process.
 */
export const isGone = (pid: number, startTicks?: number): boolean => {
  const stat = procStat(pid);
  return stat === undefined || stat.state === 'Z' || (startTicks !== undefined && stat.startTicks !== startTicks);
};

/** Every live descendant of `pid` (children, their children…), from one scan of /proc; empty without /proc. */
export const descendants = (pid: number): number[] => {
  let entries: string[];
  try {
    entries = readdirSync('/proc').filter((e) => /^\d+$/.test(e));
  } catch {
    return [];
  }
  const children = new Map<number, number[]>();
  for (const entry of entries) {
    const stat = procStat(Number(entry));
    if (stat === undefined || stat.state === 'Z') continue;
    children.set(stat.ppid, [...(children.get(stat.ppid) ?? []), Number(entry)]);
  }
  const found: number[] = [];
  const queue = [pid];
  // A process tree cannot hold a cycle, but /proc is read while it changes: bound the walk anyway.
  while (queue.length > 0 && found.length < entries.length) {
    for (const child of children.get(queue.shift() as number) ?? []) {
      found.push(child);
      queue.push(child);
    }
  }
  return found;
};

const sleepSync = (ms: number): void => {
  Atomics.wait(new Int32Array(new SharedArrayBuffer(4)), 0, 0, ms);
};

/**
 * Blocks until every pid is gone or `timeoutMs` has passed (for exit handlers, which cannot
 * wait asynchronously). True when all are gone; true at once without /proc (nothing to check).
 */
export const waitGoneSync = (pids: readonly number[], timeoutMs: number): boolean => {
  const until = Date.now() + timeoutMs;
  for (;;) {
    if (pids.every((pid) => isGone(pid))) return true;
    if (Date.now() >= until) return false;
    sleepSync(20);
  }
};

/**
 * One line on how a process fared: the CPU time it used and the machine's load, so that a start
 * that timed out tells a process starved of CPU (little CPU time, high load) from a stuck one.
 */
export const cpuReport = (pid: number | undefined): string => {
  const stat = pid === undefined ? undefined : procStat(pid);
  const cpu = stat === undefined ? 'CPU time unknown' : `${(stat.cpuTicks / TICKS_PER_SECOND).toFixed(2)} s of CPU`;
  const [one = 0] = loadavg();
  return `${cpu}; load average ${one.toFixed(2)}`;
};
