import { statSync } from 'node:fs';
import { resolve } from 'node:path';
import type { Logger } from '../../core/logger.js';

/** One folder of stored data as configured. */
export interface DirectorySetting {
  /** The configuration key, named in the message so the operator knows what to change. */
  readonly key: string;
  /** What the folder holds, e.g. `stored requests`. */
  readonly holds: string;
  /** As configured; empty means files are off and nothing is checked. */
  readonly directory: string;
  /** Absent is normal (a default folder a default install does not have): said at debug only. */
  readonly absentIsNormal?: boolean;
}

/**
 * Says at start, for each configured folder that does not exist (or is not a folder), where it
 * was looked for: the absolute path, since a relative one resolves against the working directory
 * and a server started from another folder would otherwise only show it as ids never found.
 * Warns, except a missing folder marked `absentIsNormal`, which is logged at debug. Synchronous:
 * it runs once at start, never inside a request.
 */
export const reportMissingDirectories = (settings: readonly DirectorySetting[], logger: Logger): void => {
  for (const { key, holds, directory, absentIsNormal } of settings) {
    if (directory === '') continue;
    const absolute = resolve(directory);
    let problem: string | undefined;
    let absent = false;
    try {
      if (!statSync(absolute).isDirectory()) problem = 'is not a directory';
    } catch (err) {
      const code = (err as NodeJS.ErrnoException).code;
      absent = code === 'ENOENT' || code === 'ENOTDIR';
      problem = absent ? 'does not exist' : `cannot be read (${code ?? (err as Error).message})`;
    }
    if (problem === undefined) continue;
    const fields = { key, directory, absolute };
    const msg = `${key} '${directory}' is ${absolute}, which ${problem}: no ${holds} are read from files until it is a directory`;
    if (absent && absentIsNormal === true) logger.debug(fields, msg);
    else logger.warn(fields, msg);
  }
};
