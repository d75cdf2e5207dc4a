import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { awaitReady, spawnOwned, stopOwned } from './child-processes.js';
import { waitFor } from './ports.js';
import { isGone, procStat } from './proc.js';

/*
 * A start that fails tells why, with everything the process printed (stdout and stderr), how
 * long was waited, how the process ended, its CPU time and the machine's load — never an empty
 * report — and leaves no process behind.
 */

const never = async (): Promise<boolean> => false;

const failedStart = async (command: string, timeoutMs: number): Promise<{ message: string; pid: number | undefined; elapsedMs: number }> => {
  const child = spawnOwned('sh', ['-c', command]);
  const started = Date.now();
  const err = await awaitReady(child, 'a ready signal', never, timeoutMs).then(
    () => assert.fail('the start succeeded'),
    (e: Error) => e,
  );
  return { message: err.message, pid: child.proc.pid, elapsedMs: Date.now() - started };
};

describe('a failed start', () => {
  it('that never becomes ready reports all the process printed, its CPU time and the load, and ends it', async () => {
    const { message, pid } = await failedStart('echo "on stdout"; echo "on stderr" >&2; exec sleep 60', 1_000);
    assert.match(message, /timed out after \d+ ms waiting for a ready signal/);
    assert.match(message, /on stdout/);
    assert.match(message, /on stderr/);
    assert.match(message, /s of CPU; load average \d/);
    assert.match(message, /ended: SIGKILL/);
    assert.ok(pid !== undefined && isGone(pid), 'the process that failed to start is still running');
  });

  it('of a process that printed nothing says so', async () => {
    const { message } = await failedStart('exec sleep 60', 500);
    assert.match(message, /\(nothing: the process wrote no byte to stdout or stderr\)/);
  });

  it('of a process that exits fails at once, with its exit code and output', async () => {
    const { message, elapsedMs } = await failedStart('echo "invalid configuration" >&2; exit 3', 30_000);
    assert.match(message, /the process exited \(3\) before it was ready/);
    assert.match(message, /invalid configuration/);
    assert.ok(elapsedMs < 15_000, `${elapsedMs} ms: an exit must not wait for the bound`);
  });
});

describe('a process a test started', () => {
  it("goes with its whole process tree when the test's process is killed (SIGKILL: no handler runs)", async () => {
    // A stand-in for a test file: it starts `sh`, which starts a `sleep` of its own (as a cluster
    // primary starts workers), prints both pids, and waits. The parent-death signal reaches `sh`
    // alone; the `sleep` goes only if the whole group is ended.
    const script = [
      "import { spawnOwned } from './test/support/child-processes.ts';",
      "const tree = spawnOwned('sh', ['-c', 'sleep 300 & echo $$ $!; wait']);",
      "tree.proc.stdout.on('data', (d) => process.stdout.write(d));",
    ].join('\n');
    const testFile = spawnOwned(process.execPath, ['--import', 'tsx', '--input-type=module', '-e', script], { cwd: new URL('../../', import.meta.url).pathname });
    try {
      await waitFor('the tree to start', async () => /^\d+ \d+$/m.test(testFile.output()));
      const pids = (/^(\d+) (\d+)$/m.exec(testFile.output()) ?? []).slice(1).map(Number);
      const started = pids.map((pid) => procStat(pid)?.startTicks);
      process.kill(testFile.proc.pid as number, 'SIGKILL');
      await waitFor('sh and its sleep to be gone', async () => pids.every((pid, i) => isGone(pid, started[i])), 5_000).catch(() => undefined);
      assert.deepEqual(pids.filter((pid, i) => !isGone(pid, started[i])), [], `of sh ${pids[0]} and its sleep ${pids[1]}, still running:`);
    } finally {
      await stopOwned(testFile, 'SIGKILL');
    }
  });
});
