// Prints the Node.js flags (space-separated) the server should run with; `bin/openbid` calls it,
// then starts `main.js` with them. It reads only the environment: the flags do not depend on the
// configuration, so a bad configuration is reported by main.js alone.
import { nodeFlags } from './node-flags.js';

process.stdout.write(`${nodeFlags(process.env.NODE_OPTIONS).join(' ')}\n`);
