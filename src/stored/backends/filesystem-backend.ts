import { createFilesystemAccountFetcher, createFilesystemStoredRequestFetcher } from './filesystem.js';
import { reportMissingDirectories } from './missing-directories.js';
import type { StoredBackendFactory } from './stored-backend.js';

/**
 * `filesystem`: `<directory>/<id>.json` for stored requests, imps and accounts, each folder
 * watched. A folder left empty in the configuration is not a source; a named one that is missing
 * is warned about at start (and read once it appears).
 */
export const filesystemBackend: StoredBackendFactory = async ({ storedRequests: sr, storedImps: si, accounts: ac }, { logger, onChange, impsDirectoryIsDefault }) => {
  reportMissingDirectories(
    [
      { key: 'stored_requests.filesystem.directory', holds: 'stored requests', directory: sr.filesystem.directory },
      { key: 'stored_imps.filesystem.directory', holds: 'stored imps', directory: si.filesystem.directory, absentIsNormal: impsDirectoryIsDefault },
      { key: 'accounts.filesystem.directory', holds: 'accounts', directory: ac.filesystem.directory },
    ],
    logger,
  );
  const requests =
    sr.filesystem.directory !== '' || si.filesystem.directory !== ''
      ? createFilesystemStoredRequestFetcher({ requestsDir: sr.filesystem.directory, impsDir: si.filesystem.directory }, { logger, onChange })
      : undefined;
  const accounts = ac.filesystem.directory !== '' ? createFilesystemAccountFetcher(ac.filesystem.directory, { logger, onChange }) : undefined;
  return {
    ...(requests === undefined ? {} : { storedRequests: requests }),
    ...(accounts === undefined ? {} : { accounts }),
    close: async () => {
      await Promise.all([requests?.close(), accounts?.close()]);
    },
  };
};
