import assert from 'node:assert/strict';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, describe, it } from 'node:test';
import { startServerProcess } from '../support/server-process.js';

/*
 * On a loaded machine a server process can take many seconds to print its first line (once, in
 * CI, more than the 15 s the test support then waited: the start failed with empty output). A
 * preload (NODE_OPTIONS=--require) holds the server's own process — not the launcher's
 * short-lived Node, not cluster workers — 20 s before it starts, silent, as a starved machine
 * would: its start must still succeed.
 */

const HOLD_MS = 20_000;

describe('a server process that is slow to start', () => {
  const dir = mkdtempSync(join(tmpdir(), 'openbid-slow-start-'));
  after(() => rmSync(dir, { recursive: true, force: true }));

  it(`starts when it prints nothing for ${HOLD_MS / 1000} s`, async () => {
    const preload = join(dir, 'hold.cjs');
    writeFileSync(
      preload,
      `if (process.env.NODE_UNIQUE_ID === undefined && (process.argv[1] ?? '').endsWith('main.js')) Atomics.wait(new Int32Array(new SharedArrayBuffer(4)), 0, 0, ${HOLD_MS});\n`,
    );
    const started = Date.now();
    const server = await startServerProcess({}, { NODE_OPTIONS: `--require ${preload}` });
    try {
      assert.ok(Date.now() - started >= HOLD_MS, 'the preload did not hold the server');
      assert.equal((await fetch(`${server.baseUrl}/status`)).status, 204);
    } finally {
      server.proc.kill('SIGTERM');
      assert.equal(await server.exited, 0, server.output());
    }
  });
});
