/**
 * The command line of `openbid`, shared by the server entry (`main.ts`) and the launcher's flag
 * helper (`launch-flags.ts`), so both read the same `--config` from the same arguments.
 */
export const CLI_OPTIONS = {
  config: { type: 'string', short: 'c' },
  help: { type: 'boolean', short: 'h' },
  version: { type: 'boolean', short: 'v' },
} as const;
