import { spawn } from 'node:child_process';
import type { ChildProcess } from 'node:child_process';
import type { Socket } from 'node:net';

/*
 * A watchdog per test file's process: a small `sh` that ends the process groups this process
 * registers with it once this process is gone, however it went — SIGKILL included, when no
 * handler of ours runs. It reads registrations on its stdin; EOF there means this process has
 * died (or exited). Each process a test starts leads a group of its own (`detached`), so its
 * whole tree goes: a cluster primary's workers, Postgres's backends, anything a process forked.
 *
 * It ignores SIGINT, SIGTERM and SIGHUP (a Ctrl-C reaches the whole terminal group, and it must
 * outlive this process to do its job) and runs in a group of its own, so nothing but EOF ends it.
 */

/** `+ <pgid> <SIGNAL>` registers a group, `- <pgid>` forgets it; at EOF each group still registered gets its signal. */
const SCRIPT = `trap '' INT TERM HUP
live=' '
while read -r op group sig; do
  case $op in
    +) live="$live$group:$sig " ;;
    -) kept=' '; for e in $live; do [ "\${e%%:*}" = "$group" ] || kept="$kept$e "; done; live=$kept ;;
  esac
done
for e in $live; do kill -s "\${e#*:}" -- "-\${e%%:*}" 2>/dev/null; done
`;

let watchdog: ChildProcess | undefined;
let broken = false;

const start = (): ChildProcess => {
  const sh = spawn('sh', ['-c', SCRIPT], { stdio: ['pipe', 'ignore', 'ignore'], detached: true });
  // Neither the process nor its pipe may keep this process alive.
  sh.unref();
  (sh.stdin as Socket | null)?.unref();
  // A watchdog that died (EPIPE) cannot be told more; the handlers in child-processes.ts remain.
  sh.stdin?.on('error', () => (broken = true));
  sh.on('error', () => (broken = true));
  return sh;
};

const tell = (line: string): void => {
  if (broken) return;
  watchdog ??= start();
  watchdog.stdin?.write(`${line}\n`);
};

/** Has the group `pgid` sent `signal` (e.g. `SIGKILL`) once this process has died, unless forgotten before. */
export const watchGroup = (pgid: number, signal: NodeJS.Signals): void => tell(`+ ${pgid} ${signal.slice(3)}`);

/** Forgets the group `pgid` (its leader has exited: the id may be another group's later). */
export const forgetGroup = (pgid: number): void => tell(`- ${pgid}`);
