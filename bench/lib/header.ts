import { availableParallelism, cpus } from 'node:os';
import { pinning } from './servers.js';

/**
 * The report's first lines: the machine (cores as `os.availableParallelism()` counts them), Node,
 * and where the load generator ran (always this machine, 127.0.0.1) and on which core, so a figure
 * is never read without knowing that the load competed with the server for the same cores.
 */
export const benchHeader = (tool: string, opts: { rounds: number; seconds: number; connections: number }): string => {
  const pin = pinning();
  return [
    `openbid bench: ${cpus()[0]?.model ?? 'cpu'}, ${availableParallelism()} cores (os.availableParallelism()), node ${process.version}`,
    `load generator: ${tool}, ${opts.connections} connections, on this machine over 127.0.0.1, ` +
      (pin ? `pinned to cpu ${pin.load}; single-process servers pinned to cpu ${pin.server}` : 'unpinned, servers unpinned (BENCH_PIN=0 or one core)'),
    `endpoint suites: ${opts.rounds} rounds x ${opts.seconds}s`,
  ].join('\n');
};
