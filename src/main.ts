import cluster from 'node:cluster';
import { parseArgs } from 'node:util';
import { createApp, createLogger, migrateDatabase } from './app.js';
import { CLI_OPTIONS } from './cli-options.js';
import { ConfigError, loadConfig } from './config/load.js';
import { redactConfig } from './config/redact.js';
import type { Config } from './config/schema.js';
import type { Logger } from './core/logger.js';
import { serveClusterMetrics } from './metrics/cluster-primary.js';
import { OPENBID_VERSION } from './core/version.js';

const USAGE = `Usage: openbid [--config FILE]
       openbid db migrate [--config FILE]

Starts the openbid server (Prebid Cache / Prebid Server compatible).
\`db migrate\` creates or updates the Postgres tables of stored requests, stored imps and
accounts (stored_requests.postgres.connection_string), then exits.

Options:
  -c, --config FILE  YAML or JSON configuration file (default: $OPENBID_CONFIG, else built-in defaults)
  -h, --help         print this help and exit
  -v, --version      print the version and exit

Every configuration key can be overridden by an environment variable
OPENBID_<SECTION>__<KEY>, e.g. OPENBID_SERVER__PORT=9000 or OPENBID_CACHE__BACKEND__TYPE=redis.
`;

const version = (): string => OPENBID_VERSION;

const main = async (): Promise<void> => {
  let args;
  let positionals: string[];
  try {
    ({ values: args, positionals } = parseArgs({
      options: CLI_OPTIONS,
      strict: true,
      allowPositionals: true,
    }));
    if (positionals.length > 0 && positionals.join(' ') !== 'db migrate') throw new Error(`unknown command: ${positionals.join(' ')}`);
  } catch (err) {
    process.stderr.write(`${(err as Error).message}\n\n${USAGE}`);
    process.exit(2);
  }
  if (args.help) return void process.stdout.write(USAGE);
  if (args.version) return void process.stdout.write(`openbid ${version()}\n`);

  let config: Config;
  try {
    config = loadConfig({ file: args.config, env: process.env });
  } catch (err) {
    process.stderr.write(`${err instanceof ConfigError ? err.message : String(err)}\n`);
    process.exit(1);
  }
  const logger = createLogger(config.logging);
  if (positionals.length > 0) return runMigrations(config, logger);

  if (config.server.workers > 1 && cluster.isPrimary) return runPrimary(config, logger);
  // The whole config is ~3 KB on one line: only for debugging, not the first thing every start prints.
  if (cluster.isPrimary) logger.debug({ config: redactConfig(config), version: version() }, 'configuration loaded');
  await runServer(config, logger);
};

/** `openbid db migrate`: exit 0 once the database has every migration, 1 when it cannot get them. */
const runMigrations = async (config: Config, logger: Logger): Promise<void> => {
  try {
    const applied = await migrateDatabase(config, logger);
    logger.info({ applied }, applied.length === 0 ? 'database schema is up to date' : 'database schema migrated');
    process.exit(0);
  } catch (err) {
    logger.error({ err: { message: (err as Error).message } }, 'migration failed');
    process.stderr.write(`openbid: db migrate failed: ${(err as Error).message}\n`);
    process.exit(1);
  }
};

/** One serving process: listen, then on SIGTERM/SIGINT drain and exit 0 (or 1 if draining overruns). */
const runServer = async (config: Config, logger: Logger): Promise<void> => {
  let app;
  try {
    // A worker's /metrics asks the primary for the whole group's (process.send exists in a worker).
    const clusterPrimary = cluster.isWorker ? { send: (m: unknown) => void process.send?.(m), on: process.on.bind(process), off: process.off.bind(process) } : undefined;
    app = await createApp(config, { logger, clusterPrimary });
  } catch (err) {
    // e.g. an analytics file that cannot be opened: say what and stop, before listening.
    logger.fatal({ err }, 'cannot start');
    process.stderr.write(`openbid: cannot start: ${(err as Error).message}\n`);
    process.exit(1);
  }
  let draining = false;
  const onSignal = (signal: string): void => {
    // A terminal's Ctrl-C reaches this process and `npm start` alike, and npm passes it on: the
    // same signal twice. The drain (bounded by shutdown_timeout_ms) goes on through a repeat.
    if (draining) return;
    draining = true;
    logger.info({ signal }, 'shutting down: finishing in-flight requests');
    const force = setTimeout(() => {
      logger.error({ timeoutMs: config.server.shutdown_timeout_ms }, 'shutdown timed out; exiting anyway');
      process.exit(1);
    }, config.server.shutdown_timeout_ms);
    force.unref();
    app.close().then(
      () => {
        logger.info('shut down cleanly');
        process.exit(0);
      },
      (err: unknown) => {
        logger.error({ err }, 'error while shutting down');
        process.exit(1);
      },
    );
  };
  process.on('SIGTERM', onSignal);
  process.on('SIGINT', onSignal);
  // The admin port first: once the public port answers (what a readiness probe or a load balancer
  // checks), the admin port (metrics, rates) answers too, in every worker.
  let binding = { keys: ADMIN_KEYS, host: config.server.admin_host, port: config.server.admin_port };
  try {
    // With workers, each listens on the admin port too: node:cluster shares it, as the public one.
    const adminUrl = await app.admin?.listen(config.server.admin_host, config.server.admin_port);
    binding = { keys: PUBLIC_KEYS, host: config.server.host, port: config.server.port };
    // Fastify resolves an unspecified host (0.0.0.0) to each interface's URL, and says each at info.
    const urls: string[] = [];
    const listenTextResolver = (url: string): string => {
      urls.push(url);
      return `Server listening at ${url}`;
    };
    await app.server.listen({ host: config.server.host, port: config.server.port, listenTextResolver });
    const adminNote = adminUrl === undefined ? '' : `; admin on ${adminUrl}`;
    announce(config, logger, `openbid ${version()} listening on ${urls.join(', ')}${adminNote}`, { urls, ...(adminUrl === undefined ? {} : { adminUrl }) });
  } catch (err) {
    const problem = listenProblem(err, binding.keys, binding.host, binding.port);
    logger.error({ err }, `cannot listen: ${problem}`);
    process.stderr.write(`openbid: cannot listen: ${problem}\n`);
    await app.close();
    process.exit(1);
  }
};

/** The settings that choose a listener's address: key and environment variable, for messages. */
interface ListenKeys {
  readonly port: string;
  readonly host: string;
}
const PUBLIC_KEYS: ListenKeys = { port: 'server.port or OPENBID_SERVER__PORT', host: 'server.host or OPENBID_SERVER__HOST' };
const ADMIN_KEYS: ListenKeys = { port: 'server.admin_port or OPENBID_SERVER__ADMIN_PORT', host: 'server.admin_host or OPENBID_SERVER__ADMIN_HOST' };

/** Why listening failed, naming the setting (key and variable) that fixes it. */
const listenProblem = (err: unknown, keys: ListenKeys, host: string, port: number): string => {
  const where = `${host}:${port}`;
  switch ((err as NodeJS.ErrnoException).code) {
    case 'EADDRINUSE':
      return `${where} is already in use; choose another port with ${keys.port}`;
    case 'EACCES':
      return `no permission to listen on ${where} (ports below 1024 need privileges); choose another port with ${keys.port}`;
    case 'EADDRNOTAVAIL':
    case 'ENOTFOUND':
      return `${host} is not an address of this machine; set ${keys.host}`;
    default:
      return (err as Error).message;
  }
};

/**
 * Logs one info line whatever `logging.level` is (unless `silent`): where the server listens must
 * be known also to whoever runs it at `warn`. A child of the same logger, so the line keeps its
 * place among the others.
 */
const announce = (config: Config, logger: Logger, msg: string, fields: Record<string, unknown>): void => {
  if (config.logging.level === 'silent') return;
  logger.child({}, { level: 'info' }).info(fields, msg);
};

/** The cluster primary: forks the workers, replaces any that die, and stops them all on a signal. */
const runPrimary = (config: Config, logger: Logger): void => {
  logger.debug({ config: redactConfig(config), version: version() }, 'configuration loaded');
  logger.info({ workers: config.server.workers }, `openbid ${version()} starting ${config.server.workers} workers`);
  let stopping = false;
  if (config.metrics.enabled) serveClusterMetrics({ group: cluster, timeoutMs: config.metrics.cluster_timeout_ms, logger });
  for (let i = 0; i < config.server.workers; i++) cluster.fork();
  cluster.on('exit', (worker, code, signal) => {
    if (stopping) {
      if (Object.keys(cluster.workers ?? {}).length === 0) process.exit(0);
      return;
    }
    logger.error({ pid: worker.process.pid, code, signal }, 'worker died; starting a new one');
    setTimeout(() => cluster.fork(), 500);
  });
  const stop = (signal: NodeJS.Signals): void => {
    if (stopping) return;
    stopping = true;
    logger.info({ signal }, 'stopping workers');
    for (const worker of Object.values(cluster.workers ?? {})) worker?.process.kill('SIGTERM');
    setTimeout(() => process.exit(1), config.server.shutdown_timeout_ms + 1000).unref();
    if (Object.keys(cluster.workers ?? {}).length === 0) process.exit(0);
  };
  // Kept after the first, as in one serving process: a repeated signal must not kill the primary mid-stop.
  process.on('SIGTERM', stop);
  process.on('SIGINT', stop);
};

await main();
