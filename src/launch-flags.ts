// Prints the Node.js flags (space-separated) that the server started with the same arguments and
// environment should run with; `bin/openbid` calls it, then starts `main.js` with them.
import { parseArgs } from 'node:util';
import { CLI_OPTIONS } from './cli-options.js';
import { loadConfig } from './config/load.js';
import { nodeFlagsFor } from './node-flags.js';
import type { CacheBackendType } from './node-flags.js';

const configuredBackend = (): CacheBackendType => {
  try {
    const args = parseArgs({ options: CLI_OPTIONS, strict: true }).values;
    if (args.help === true || args.version === true) return 'memory';
    return loadConfig({ file: args.config, env: process.env }).cache.backend.type;
  } catch {
    // Bad arguments or configuration: main.js reports them with its own exit code; the flags
    // only need to let it start.
    return 'memory';
  }
};

process.stdout.write(`${nodeFlagsFor(configuredBackend(), process.env.NODE_OPTIONS).join(' ')}\n`);
