import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { cpSync, existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, relative } from 'node:path';
import { after, describe, it } from 'node:test';
import { parse as parseYaml } from 'yaml';
import { loadConfig } from '../../src/config/load.js';
import { awaitReady, spawnOwned } from '../support/child-processes.js';
import { freePort } from '../support/ports.js';
import { scaled, STARTUP_TIMEOUT_MS } from '../support/time-bounds.js';

// No container engine runs here (CI included), so the image is not built. Instead this performs
// the Dockerfile's steps in a clean temporary directory as a stand-in: each stage's files are
// copied as its COPY lines say (the context filtered by .dockerignore), its RUN lines run there
// (npm from this machine's cache, offline), then the final stage's CMD starts with its ENV and
// its HEALTHCHECK must pass. Not checked: the base image, USER's effect, layer caching.
const ROOT = new URL('../..', import.meta.url).pathname;
const STEP_TIMEOUT_MS = 60_000;

interface Instruction {
  readonly op: string;
  readonly args: string;
}
interface Stage {
  readonly name: string;
  readonly from: string;
  readonly steps: Instruction[];
}

/** The Dockerfile's instructions by stage: continuation lines joined, comments and parser directives dropped. */
const parseDockerfile = (text: string): Stage[] => {
  const stages: Stage[] = [];
  const logical = text.replace(/\\\n/g, ' ').split('\n').map((l) => l.trim()).filter((l) => l !== '' && !l.startsWith('#'));
  for (const line of logical) {
    const [, op = '', args = ''] = /^(\S+)\s*(.*)$/.exec(line) ?? [];
    if (op.toUpperCase() === 'FROM') {
      const [from = '', , name] = args.split(/\s+/);
      stages.push({ name: name ?? String(stages.length), from, steps: [] });
    } else {
      stages.at(-1)?.steps.push({ op: op.toUpperCase(), args });
    }
  }
  return stages;
};

/** Whether `.dockerignore` keeps `rel` (a context path) out: its patterns, for the forms used here. */
const ignoredBy = (patterns: string[]) => {
  const toRegex = (p: string): RegExp =>
    new RegExp(`^${p.split('**/').map((part) => part.replace(/[.+^${}()|[\]]/g, '\\$&').replace(/\*/g, '[^/]*')).join('(.*/)?')}(/.*)?$`);
  const regexes = patterns.map(toRegex);
  return (rel: string): boolean => regexes.some((r) => r.test(rel));
};

/** `KEY=value` pairs of an ENV or ARG line (unquoted values, as this Dockerfile writes them). */
const pairs = (args: string): [string, string][] =>
  args.split(/\s+/).map((kv) => {
    const [k = '', ...v] = kv.split('=');
    return [k, v.join('=').replace(/^"(.*)"$/, '$1')];
  });

/** Runs a RUN line's shell command; rejects with its output if it fails or overruns. */
const run = async (cmd: string, cwd: string, env: NodeJS.ProcessEnv): Promise<void> => {
  const started = Date.now();
  const step = spawnOwned('sh', ['-c', cmd], { cwd, env, timeout: STEP_TIMEOUT_MS });
  const ended = await step.exited;
  if (process.env.OPENBID_TEST_TIMINGS) process.stderr.write(`RUN ${cmd}: ${Date.now() - started} ms\n`);
  assert.equal(ended, 0, `RUN ${cmd} failed after ${Date.now() - started} ms (${ended}):\n${step.output()}`);
};

/** What performing a stage leaves: its files, and the settings a container of it starts with. */
interface StageResult {
  readonly root: string;
  readonly workdir: string;
  readonly env: NodeJS.ProcessEnv;
  readonly healthcheck: string[];
  readonly cmd: string[];
}

/**
 * Performs the stages as BuildKit does: each in its own root, at once, a `COPY --from` waiting for
 * the stage it names. `ignored` filters the build context (`.dockerignore`).
 */
const performStages = (stages: Stage[], work: string, ignored: (rel: string) => boolean): Map<string, Promise<StageResult>> => {
  const results = new Map<string, Promise<StageResult>>();
  const perform = async (stage: Stage): Promise<StageResult> => {
    const root = join(work, `stage-${stage.name}`);
    let workdir = root;
    // npm reads this machine's cache and does not go to the registry for what it has there.
    const env: NodeJS.ProcessEnv = { PATH: process.env.PATH, HOME: process.env.HOME, npm_config_prefer_offline: 'true', npm_config_update_notifier: 'false' };
    let healthcheck: string[] = [];
    let cmd: string[] = [];
    for (const { op, args } of stage.steps) {
      if (op === 'WORKDIR') mkdirSync((workdir = join(root, args)), { recursive: true });
      else if (op === 'ENV' || op === 'ARG') for (const [k, v] of pairs(args)) env[k] = v;
      // Flags such as --mount (npm's cache) change how a step is cached, not what it makes.
      else if (op === 'RUN') await run(args.replace(/^(--\S+\s+)+/, ''), workdir, env);
      else if (op === 'HEALTHCHECK') healthcheck = JSON.parse(args.replace(/^.*?\bCMD\s+/, '')) as string[];
      else if (op === 'CMD') cmd = JSON.parse(args) as string[];
      else if (op === 'COPY') {
        const words = args.split(/\s+/);
        const from = words[0]?.startsWith('--from=') ? words.shift()?.slice('--from='.length) : undefined;
        const fromRoot = from === undefined ? ROOT : (await (results.get(from) ?? assert.fail(`no stage ${from}`))).root;
        const dest = words.pop() ?? '';
        for (const src of words) {
          const source = join(fromRoot, src);
          assert.ok(existsSync(source), `COPY source ${src} is missing`);
          const into = statSync(source).isDirectory() || !dest.endsWith('/') ? join(workdir, dest) : join(workdir, dest, src.split('/').at(-1) ?? '');
          cpSync(source, into, { recursive: true, filter: (p) => from !== undefined || !ignored(relative(ROOT, p)) });
        }
      }
    }
    return { root, workdir, env, healthcheck, cmd };
  };
  // A stage names only earlier ones in COPY --from, so each finds its promise already set.
  for (const stage of stages) results.set(stage.name, perform(stage));
  return results;
};

const dockerfile = readFileSync(join(ROOT, 'Dockerfile'), 'utf8');
const stages = parseDockerfile(dockerfile);
const final = stages.at(-1);
const work = mkdtempSync(join(tmpdir(), 'openbid-image-'));
after(() => rmSync(work, { recursive: true, force: true }));

describe('Dockerfile', () => {
  it('is two stages on Node 20, the final one unprivileged, exposing its port, with a HEALTHCHECK and a CMD', () => {
    assert.equal(stages.length, 2);
    for (const s of stages) assert.match(s.from, /^node:20(\.|-|$)/);
    const ops = (s: Stage | undefined, op: string) => s?.steps.filter((i) => i.op === op).map((i) => i.args) ?? [];
    assert.deepEqual(ops(final, 'USER'), ['node']);
    const env = new Map(ops(final, 'ENV').flatMap(pairs));
    assert.deepEqual(ops(final, 'EXPOSE'), [env.get('OPENBID_SERVER__PORT')]);
    assert.equal(ops(final, 'HEALTHCHECK').length, 1);
    assert.equal(ops(final, 'CMD').length, 1);
    assert.ok(ops(final, 'RUN').some((r) => r.includes('npm ci --omit=dev')), 'the final stage installs production dependencies only');
  });

  it('builds and starts as its steps say: the HEALTHCHECK passes once serving, and no devDependency ships', { timeout: scaled(150_000) }, async () => {
    const ignored = ignoredBy(readFileSync(join(ROOT, '.dockerignore'), 'utf8').split('\n').map((l) => l.trim()).filter((l) => l !== '' && !l.startsWith('#')));
    const results = performStages(stages, work, ignored);
    const built = await Promise.all([...results.values()]);
    const { workdir, env, healthcheck, cmd } = built.at(-1) ?? assert.fail('no stage');
    assert.ok(final !== undefined && cmd.length > 0 && healthcheck.length > 0);

    // No test file reached the build (the context is filtered), and no dev tool the final stage.
    const build = built[0]?.root ?? '';
    const files = (dir: string): string[] => readdirSync(dir, { recursive: true, encoding: 'utf8' });
    assert.deepEqual(files(join(build, 'app/src')).filter((f) => f.endsWith('.test.ts')), []);
    const pkg = JSON.parse(readFileSync(join(ROOT, 'package.json'), 'utf8')) as { dependencies: Record<string, string>; devDependencies: Record<string, string> };
    const modules = join(workdir, 'node_modules');
    for (const dev of Object.keys(pkg.devDependencies)) assert.ok(!existsSync(join(modules, dev)), `devDependency ${dev} is in the final stage`);
    for (const dep of Object.keys(pkg.dependencies)) assert.ok(existsSync(join(modules, dep)), `dependency ${dep} is missing from the final stage`);
    assert.ok(existsSync(join(workdir, 'dist/main.js')) && existsSync(join(workdir, 'dist/build-info.json')));

    // `docker run -e`: the ports and addresses are a test's own; the rest is the image's ENV.
    assert.equal(env.OPENBID_SERVER__ADMIN_HOST, '0.0.0.0', 'the admin listener is reachable from the container network');
    const [port, adminPort] = [await freePort(), await freePort()];
    const runEnv = { ...env, OPENBID_SERVER__PORT: String(port), OPENBID_SERVER__HOST: '127.0.0.1', OPENBID_SERVER__ADMIN_PORT: String(adminPort), OPENBID_SERVER__ADMIN_HOST: '127.0.0.1' };
    const healthy = (): boolean => spawnSync(healthcheck[0] ?? '', healthcheck.slice(1), { cwd: workdir, env: runEnv, timeout: 5000 }).status === 0;
    assert.equal(healthy(), false, 'the HEALTHCHECK must fail while nothing serves');
    const server = spawnOwned(cmd[0] ?? '', cmd.slice(1), { cwd: workdir, env: runEnv });
    try {
      await awaitReady(server, 'the HEALTHCHECK to pass', () => Promise.resolve(healthy()), STARTUP_TIMEOUT_MS);
      const amp = await fetch(`http://127.0.0.1:${port}/openrtb2/amp?tag_id=nope`, { signal: AbortSignal.timeout(5000) });
      assert.equal(amp.status, 400, 'the image serves the auction routes');
      // Metrics on the admin listener only.
      assert.equal((await fetch(`http://127.0.0.1:${adminPort}/metrics`, { signal: AbortSignal.timeout(5000) })).status, 200);
      assert.equal((await fetch(`http://127.0.0.1:${port}/metrics`, { signal: AbortSignal.timeout(5000) })).status, 404);
    } finally {
      server.proc.kill('SIGTERM');
      assert.equal(await server.exited, 0, server.output());
    }
  });
});

describe('deploy/compose.yaml', () => {
  it('wires openbid to Redis and Postgres through OPENBID_* variables the configuration accepts', () => {
    const compose = parseYaml(readFileSync(join(ROOT, 'deploy/compose.yaml'), 'utf8'), { merge: true }) as { services: Record<string, { environment?: Record<string, string | number | boolean>; command?: string[] }> };
    const openbid = compose.services.openbid?.environment ?? assert.fail('no openbid service with an environment');
    // Compose's `${VAR:-default}` with none of those variables set.
    const env = Object.fromEntries(Object.entries(openbid).map(([k, v]) => [k, String(v).replace(/\$\{\w+:-([^}]*)\}/g, '$1')]));
    const config = loadConfig({ env });
    assert.equal(config.cache.backend.type, 'redis');
    assert.match(config.cache.backend.redis.url, /^redis:\/\/redis:6379/);
    assert.match(config.stored_requests.postgres.connection_string, /@postgres:5432\//);
    assert.ok(config.server.admin_port > 0);
    assert.ok(compose.services.redis !== undefined && compose.services.postgres !== undefined);
    assert.deepEqual(compose.services.migrate?.command, ['bin/openbid', 'db', 'migrate']);
  });
});
