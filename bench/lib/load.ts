import { spawn, spawnSync } from 'node:child_process';
import { mkdtempSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pinning } from './servers.js';

export interface LoadSpec {
  readonly url: string;
  readonly method?: 'GET' | 'POST';
  readonly body?: string;
  readonly headers?: Record<string, string>;
  readonly seconds: number;
  readonly connections: number;
}

export interface LoadResult {
  readonly requestsPerSecond: number;
  /** Requests answered over the whole load (what CPU and allocation per request divide by). */
  readonly requests: number;
  readonly p99Ms: number;
  readonly errors: number;
}

const hasWrk = (): boolean => spawnSync('sh', ['-c', 'command -v wrk'], { stdio: 'ignore' }).status === 0;

export const loadTool = (): string => (hasWrk() ? 'wrk' : 'autocannon');

/**
 * Drives `spec.url` from a separate process (wrk, else autocannon) so the load generator never
 * shares an event loop with a server under test. Bounded by `spec.seconds`.
 */
export const runLoad = (spec: LoadSpec): Promise<LoadResult> => (hasWrk() ? runWrk(spec) : runAutocannon(spec));

const collect = (cmd: string, args: string[], timeoutMs: number): Promise<string> =>
  new Promise((resolve, reject) => {
    const proc = spawn(cmd, args);
    let out = '';
    proc.stdout.on('data', (d: Buffer) => (out += d.toString()));
    proc.stderr.on('data', (d: Buffer) => (out += d.toString()));
    const timer = setTimeout(() => proc.kill('SIGKILL'), timeoutMs);
    proc.on('exit', (code) => {
      clearTimeout(timer);
      if (code === 0) resolve(out);
      else reject(new Error(`${cmd} exited ${code}:\n${out}`));
    });
  });

/**
 * The headers every request of `spec` carries: its own, and `Content-Type: application/json` for a
 * body when it names no Content-Type. Never two: a request with two (an auction posts text/plain,
 * as Prebid.js does) is one no browser sends, and one the socket lane hands to node:http.
 */
const requestHeaders = (spec: LoadSpec): Record<string, string> => {
  const typed = Object.keys(spec.headers ?? {}).some((k) => k.toLowerCase() === 'content-type');
  return { ...(spec.body !== undefined && !typed ? { 'Content-Type': 'application/json' } : {}), ...spec.headers };
};

const runWrk = async (spec: LoadSpec): Promise<LoadResult> => {
  const dir = mkdtempSync(join(tmpdir(), 'openbid-wrk-'));
  const script = join(dir, 'request.lua');
  const headers = requestHeaders(spec);
  writeFileSync(
    script,
    [
      `wrk.method = ${JSON.stringify(spec.method ?? 'GET')}`,
      ...(spec.body !== undefined ? [`wrk.body = ${luaString(spec.body)}`] : []),
      ...Object.entries(headers).map(([k, v]) => `wrk.headers[${JSON.stringify(k)}] = ${JSON.stringify(v)}`),
    ].join('\n'),
  );
  const wrk = ['wrk', '-t1', `-c${spec.connections}`, `-d${spec.seconds}s`, '--latency', '-s', script, spec.url];
  const pin = pinning();
  const [cmd, ...args] = pin ? ['taskset', '-c', pin.load, ...wrk] : wrk;
  const out = await collect(cmd as string, args, (spec.seconds + 30) * 1000);
  const rps = Number(/Requests\/sec:\s+([\d.]+)/.exec(out)?.[1] ?? NaN);
  const requests = Number(/(\d+) requests in/.exec(out)?.[1] ?? rps * spec.seconds);
  const p99 = /99%\s+([\d.]+)(us|ms|s)/.exec(out);
  const p99Ms = p99 ? Number(p99[1]) * ({ us: 0.001, ms: 1, s: 1000 }[p99[2] as 'us' | 'ms' | 's']) : NaN;
  const socket = /Socket errors: connect (\d+), read (\d+), write (\d+), timeout (\d+)/.exec(out);
  const socketErrors = socket ? socket.slice(1).reduce((sum, n) => sum + Number(n), 0) : 0;
  const errors = Number(/Non-2xx or 3xx responses:\s+(\d+)/.exec(out)?.[1] ?? 0) + socketErrors;
  if (!Number.isFinite(rps)) throw new Error(`cannot read wrk output:\n${out}`);
  return { requestsPerSecond: rps, requests, p99Ms, errors };
};

// Lua long brackets take any text unescaped, as long as the closing bracket does not occur in it.
const luaString = (s: string): string => {
  let eq = '';
  while (s.includes(`]${eq}]`)) eq += '=';
  return `[${eq}[${s}]${eq}]`;
};

const runAutocannon = async (spec: LoadSpec): Promise<LoadResult> => {
  const require = createRequire(import.meta.url);
  const bin = join(require.resolve('autocannon/package.json'), '..', 'autocannon.js');
  const args = [bin, '-j', '-c', String(spec.connections), '-d', String(spec.seconds), '-m', spec.method ?? 'GET'];
  if (spec.body !== undefined) args.push('-b', spec.body);
  for (const [k, v] of Object.entries(requestHeaders(spec))) args.push('-H', `${k}=${v}`);
  // Pinned like wrk, so the header's "load on cpu N" holds for either tool.
  const pin = pinning();
  const [cmd, ...rest] = pin ? ['taskset', '-c', pin.load, process.execPath, ...args, spec.url] : [process.execPath, ...args, spec.url];
  const out = await collect(cmd, rest, (spec.seconds + 30) * 1000);
  const json = JSON.parse(out.slice(out.indexOf('{'))) as { requests: { average: number; total: number }; latency: { p99: number }; non2xx: number; errors: number };
  return { requestsPerSecond: json.requests.average, requests: json.requests.total, p99Ms: json.latency.p99, errors: json.non2xx + json.errors };
};
