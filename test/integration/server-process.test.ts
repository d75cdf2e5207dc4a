import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { once } from 'node:events';
import { connect } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, it } from 'node:test';
import { waitFor, withPortInUse } from '../support/ports.js';
import { startRedis } from '../support/redis.js';
import { runCli, startServerProcess } from '../support/server-process.js';
import { untilPeerHasRead } from '../support/tcp-queues.js';
import { STARTUP_TIMEOUT_MS } from '../support/time-bounds.js';

const pkg = JSON.parse(readFileSync(new URL('../../package.json', import.meta.url), 'utf8')) as { version: string };

/** The Node.js flags a running process was started with: its arguments before the script. */
const nodeArgs = (pid: number | undefined): string[] => {
  const argv = readFileSync(`/proc/${pid}/cmdline`, 'utf8').split('\0').filter(Boolean);
  const script = argv.findIndex((a) => a.endsWith('.js'));
  return argv.slice(1, script);
};

describe('openbid command line', () => {
  it('--help prints usage and exits 0', async () => {
    const run = runCli(['--help']);
    assert.equal(await run.exited, 0);
    assert.match(run.output(), /Usage: openbid \[--config FILE\]/);
    assert.match(run.output(), /OPENBID_<SECTION>__<KEY>/);
  });

  it('--version prints the package version', async () => {
    const run = runCli(['--version']);
    assert.equal(await run.exited, 0);
    assert.equal(run.output().trim(), `openbid ${pkg.version}`);
  });

  it('an unknown flag exits 2 with usage', async () => {
    const run = runCli(['--bogus']);
    assert.equal(await run.exited, 2);
    assert.match(run.output(), /Usage:/);
  });

  it('an invalid environment value exits 1 naming the variable', async () => {
    const run = runCli([], { OPENBID_SERVER__PORT: 'eighty' });
    assert.equal(await run.exited, 1);
    assert.ok(run.output().includes('server.port: must be integer (value "eighty") (set by OPENBID_SERVER__PORT)'), run.output());
  });

  it('a port in use exits 1 naming server.port and OPENBID_SERVER__PORT', async () => {
    await withPortInUse(async (port) => {
      // No admin listener: its default port (6060) may be taken on this machine, and would be named instead.
      const run = runCli([], { OPENBID_SERVER__HOST: '127.0.0.1', OPENBID_SERVER__PORT: String(port), OPENBID_SERVER__ADMIN_PORT: '0' });
      assert.equal(await run.exited, 1);
      assert.ok(
        run.output().includes(`openbid: cannot listen: 127.0.0.1:${port} is already in use; choose another port with server.port or OPENBID_SERVER__PORT`),
        run.output(),
      );
    });
  });

  it('an invalid config exits 1 listing every problem', async () => {
    const file = join(mkdtempSync(join(tmpdir(), 'openbid-bad-')), 'bad.yaml');
    writeFileSync(file, 'server:\n  port: nope\n  colour: blue\ncache:\n  backend:\n    type: floppy\n');
    const run = runCli(['--config', file], { OPENBID_SERVER__WORKERS: '0' });
    assert.equal(await run.exited, 1);
    const out = run.output();
    for (const problem of ['server.port: must be integer', 'server.colour: unknown key', 'cache.backend.type: must be one of memory, redis', 'server.workers: must be >= 1']) {
      assert.ok(out.includes(problem), `missing "${problem}" in:\n${out}`);
    }
  });
});

describe('openbid server process', () => {
  it('serves a cache round trip and logs the resolved config at debug with secrets redacted', async () => {
    const server = await startServerProcess({ logging: { level: 'debug' }, cache: { backend: { redis: { url: 'redis://user:hunter2@127.0.0.1:1' } } } });
    try {
      const put = await fetch(`${server.baseUrl}/cache`, { method: 'POST', body: JSON.stringify({ puts: [{ type: 'xml', value: '<VAST/>' }] }) });
      assert.equal(put.status, 200);
      const { responses } = (await put.json()) as { responses: { uuid: string }[] };
      const get = await fetch(`${server.baseUrl}/cache?uuid=${responses[0]?.uuid ?? ''}`);
      assert.equal(await get.text(), '<VAST/>');
      const log = server.output();
      assert.match(log, /"msg":"configuration loaded"/);
      assert.ok(log.includes('redis://user:redacted@127.0.0.1:1'), 'redis URL not redacted');
      assert.ok(!log.includes('hunter2'), 'secret leaked into the log');
      // The launcher replaced itself with Node, started with the larger young generation.
      assert.deepEqual(nodeArgs(server.proc.pid), ['--max-semi-space-size=64']);
    } finally {
      server.proc.kill('SIGTERM');
      assert.equal(await server.exited, 0);
    }
  });

  it('at logging.level silent says nothing, and still starts and answers', async () => {
    const server = await startServerProcess({ logging: { level: 'silent' } });
    try {
      assert.equal((await fetch(`${server.baseUrl}/status`)).status, 204);
      assert.equal(server.output(), '');
    } finally {
      server.proc.kill('SIGTERM');
      assert.equal(await server.exited, 0);
    }
  });

  it('says where it listens in one line also at logging.level warn, and dumps the config only at debug', async () => {
    for (const level of ['warn', 'info']) {
      const server = await startServerProcess({ logging: { level } });
      try {
        // /status answers once listen() has resolved; the line follows in the same turn.
        await waitFor('the listening line', async () => server.output().includes(' listening on '), 5_000);
        const lines = server.output().split('\n').filter((l) => l.includes(' listening on '));
        assert.equal(lines.length, 1, server.output());
        assert.ok(lines[0]?.includes(`"msg":"openbid ${pkg.version} listening on ${server.baseUrl}; admin on ${server.adminUrl}"`), lines[0]);
        assert.ok(!server.output().includes('configuration loaded'), `config dumped at ${level}`);
      } finally {
        server.proc.kill('SIGTERM');
        assert.equal(await server.exited, 0);
      }
    }
  });

  it('exposes Prometheus metrics for requests and cache operations on the admin listener', async () => {
    const server = await startServerProcess();
    try {
      await fetch(`${server.baseUrl}/cache`, { method: 'POST', body: JSON.stringify({ puts: [{ type: 'xml', value: '<a/>' }] }) });
      await fetch(`${server.baseUrl}/cache?uuid=00000000-0000-4000-8000-00000000beef`);
      const res = await fetch(`${server.adminUrl ?? assert.fail('no admin listener')}/metrics`);
      assert.equal(res.status, 200);
      const text = await res.text();
      for (const line of [
        'openbid_cache_puts_total{type="xml",result="stored"} 1',
        'openbid_cache_gets_total{result="miss"} 1',
        'openbid_http_requests_total{route="/cache",method="POST",status="200"} 1',
        'openbid_http_requests_total{route="/cache",method="GET",status="404"} 1',
      ]) {
        assert.ok(text.includes(line), `missing "${line}"`);
      }
      assert.match(text, /openbid_http_request_duration_seconds_bucket\{le="0.005",route="\/cache",method="POST"\}/);
    } finally {
      server.proc.kill('SIGTERM');
      await server.exited;
    }
  });

  it('on SIGTERM finishes the request in flight, answers 503 to what follows, and exits 0', async () => {
    const server = await startServerProcess();
    const body = JSON.stringify({ puts: [{ type: 'xml', value: '<VAST>in flight</VAST>' }] });
    const socket = connect(server.port, '127.0.0.1');
    let received = '';
    socket.on('data', (d: Buffer) => (received += d.toString()));
    socket.on('error', () => undefined);
    const closed = once(socket, 'close');
    await new Promise<void>((resolve) => socket.once('connect', () => resolve()));
    // Headers and half the body now; SIGTERM once the server has read them (so the request is in
    // flight); then, once it has begun draining, the rest, followed by a pipelined GET /cache (a
    // lane route: the lane must leave it to Fastify's 503 once draining has begun). Each step
    // waits for the server to get there, however slowly a loaded machine runs it.
    socket.write(`POST /cache HTTP/1.1\r\nHost: x\r\nContent-Type: text/plain\r\nContent-Length: ${Buffer.byteLength(body)}\r\n\r\n${body.slice(0, 20)}`);
    await untilPeerHasRead(socket);
    server.proc.kill('SIGTERM');
    await waitFor('the server to start draining', async () => server.output().includes('shutting down: finishing in-flight requests'), 10_000);
    socket.write(`${body.slice(20)}GET /cache?uuid=00000000-0000-4000-8000-000000000001 HTTP/1.1\r\nHost: x\r\n\r\n`);
    const code = await server.exited;
    // Everything the server sent is read once its side of the connection has closed.
    await closed;
    assert.match(received, /^HTTP\/1\.1 200 OK/, `in-flight request not answered 200:\n${received}\n${server.output()}`);
    assert.match(received, /"responses":\[\{"uuid":"[0-9a-f-]{36}"\}\]/);
    assert.match(received, /HTTP\/1\.1 503/, 'the request after SIGTERM was not answered 503');
    assert.equal(code, 0);
    assert.match(server.output(), /shut down cleanly/);
  });

  it('runs server.workers cluster workers sharing one Redis, and stops them all on SIGTERM', async () => {
    const redis = await startRedis();
    // A generous Redis timeout: this checks that workers share one Redis, not its latency on a loaded machine
    // (the 100 ms default was overrun once in CI while the workers started).
    const server = await startServerProcess({ server: { workers: 2 }, cache: { backend: { type: 'redis', redis: { url: redis.url, timeout_ms: 2000 } } } });
    try {
      const children = () => execFileSync('pgrep', ['-P', String(server.proc.pid)], { encoding: 'utf8' }).trim().split('\n').filter(Boolean);
      const listening = () => new Set(server.output().split('\n').filter((l) => l.includes(' listening on ')).map((l) => /"pid":(\d+)/.exec(l)?.[1])).size;
      // /status answers as soon as the first worker listens; wait for the second.
      await waitFor('both workers listening', async () => listening() === 2, STARTUP_TIMEOUT_MS);
      assert.equal(children().length, 2, 'expected two worker processes');
      // Workers inherit the launcher's young generation.
      assert.deepEqual(nodeArgs(server.proc.pid), ['--max-semi-space-size=64']);
      for (const child of children()) assert.deepEqual(nodeArgs(Number(child)), ['--max-semi-space-size=64']);
      // New connections are spread over the workers; every read must see every write.
      for (let i = 0; i < 20; i++) {
        const put = await fetch(`${server.baseUrl}/cache`, { method: 'POST', body: JSON.stringify({ puts: [{ type: 'xml', value: `<v${i}/>` }] }), headers: { connection: 'close' } });
        const { responses } = (await put.json()) as { responses: { uuid: string }[] };
        const get = await fetch(`${server.baseUrl}/cache?uuid=${responses[0]?.uuid ?? ''}`, { headers: { connection: 'close' } });
        assert.equal(await get.text(), `<v${i}/>`);
      }

      // A worker that dies is replaced.
      const [victim] = children();
      process.kill(Number(victim), 'SIGKILL');
      await waitFor('a replacement worker', async () => {
        const now = children();
        return now.length === 2 && !now.includes(victim ?? '');
      }, STARTUP_TIMEOUT_MS);
      await waitFor('the replacement serving', async () => listening() === 3, STARTUP_TIMEOUT_MS);
      assert.match(server.output(), /worker died; starting a new one/);
    } finally {
      server.proc.kill('SIGTERM');
      assert.equal(await server.exited, 0);
      await redis.stop();
    }
  });
});
