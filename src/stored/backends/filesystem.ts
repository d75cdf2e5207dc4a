import { watch } from 'node:fs';
import type { FSWatcher } from 'node:fs';
import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import type { Logger } from '../../core/logger.js';
import { parseAccountSettings } from '../account.js';
import type { AccountFetcher, AccountSettings } from '../account.js';
import { backendFailure } from '../errors.js';
import type { StoredKind } from '../fetcher-cache.js';
import type { Closable, StoredRequestFetcher } from '../stored-request-fetcher.js';

/*
 * Stored data in files: `<directory>/<id>.json`, one folder per kind (requests, imps, accounts).
 *
 * Files are read when asked for (asynchronously: no synchronous I/O inside a request), never kept
 * here: the cache in front keeps them. So that an edited, added or removed file is served without a
 * restart and without waiting for the cache's TTL, each folder is watched (`fs.watch`) and a change
 * to `<id>.json` is reported through `onChange`, which the composition root points at the cache's
 * invalidation. Where watching is not possible (a folder missing at start, a file system without
 * notifications) the cache's TTL bounds how long an old version is served.
 */

export interface FilesystemOptions {
  readonly logger: Logger;
  /** Told when `<id>.json` of a folder changes; `id` is undefined when the platform does not say which file. */
  readonly onChange?: (kind: StoredKind, id: string | undefined) => void;
}

/**
 * Ids become file names: an id with a path separator, a control character or a leading dot (which
 * could leave the folder or name a hidden file) is simply not there: a tag id of
 * `../../etc/passwd` is a missing stored request, never a read.
 */
// eslint-disable-next-line no-control-regex
const SAFE_ID = /^[^./\\\x00-\x1f][^/\\\x00-\x1f]{0,199}$/;
export const isFileId = (id: string): boolean => SAFE_ID.test(id);

/** One folder of `<id>.json` files: the text of a file, or undefined when there is none. */
const createFolder = (kind: StoredKind, directory: string, opts: FilesystemOptions) => {
  const source = `${kind} files`;
  let watcher: FSWatcher | undefined;
  if (directory !== '' && opts.onChange !== undefined) {
    const onChange = opts.onChange;
    try {
      watcher = watch(directory, { persistent: false }, (_event, filename) => {
        const name = filename?.toString();
        if (name === undefined) onChange(kind, undefined);
        else if (name.endsWith('.json')) onChange(kind, name.slice(0, -'.json'.length));
      });
      watcher.on('error', (err) => {
        opts.logger.warn({ err, directory }, `no longer watching ${source}: changes show once the cache's TTL runs out`);
        watcher?.close();
      });
    } catch (err) {
      const code = (err as NodeJS.ErrnoException).code;
      // A folder that is not there holds nothing yet: worth a word only when debugging.
      opts.logger[code === 'ENOENT' ? 'debug' : 'warn']({ directory, code }, `${source} are not watched: changes show once the cache's TTL runs out`);
    }
  }
  return {
    read: async (id: string): Promise<string | undefined> => {
      if (directory === '' || !isFileId(id)) return undefined;
      try {
        const text = await readFile(join(directory, `${id}.json`), 'utf8');
        return text.charCodeAt(0) === 0xfeff ? text.slice(1) : text;
      } catch (err) {
        const code = (err as NodeJS.ErrnoException).code;
        if (code === 'ENOENT' || code === 'ENOTDIR') return undefined;
        throw backendFailure(source, `cannot read ${id}.json: ${code ?? (err as Error).message}`, err);
      }
    },
    close: () => watcher?.close(),
  };
};

/** Stored requests and imps from `<requestsDir>/<id>.json` and `<impsDir>/<id>.json`; an empty directory name turns that kind off. */
export const createFilesystemStoredRequestFetcher = (
  dirs: { readonly requestsDir: string; readonly impsDir: string },
  opts: FilesystemOptions,
): StoredRequestFetcher & Closable => {
  const requests = createFolder('request', dirs.requestsDir, opts);
  const imps = createFolder('imp', dirs.impsDir, opts);
  return {
    // Files are not scoped by account: `opts.accountId` is ignored.
    fetchRequests: async (requestIds, impIds) => {
      const read = async (folder: typeof requests, ids: readonly string[]) => {
        const unique = [...new Set(ids.filter((id) => id !== ''))];
        const texts = await Promise.all(unique.map((id) => folder.read(id)));
        const found = new Map<string, string>();
        const missing: string[] = [];
        unique.forEach((id, i) => {
          const text = texts[i];
          if (text === undefined) missing.push(id);
          else found.set(id, text);
        });
        return { found, missing };
      };
      const [r, i] = await Promise.all([read(requests, requestIds), read(imps, impIds)]);
      return { requests: r.found, imps: i.found, missing: [...r.missing, ...i.missing] };
    },
    close: async () => {
      requests.close();
      imps.close();
    },
  };
};

/** Accounts from `<directory>/<id>.json`, each checked against the account schema. */
export const createFilesystemAccountFetcher = (directory: string, opts: FilesystemOptions): AccountFetcher & Closable => {
  const accounts = createFolder('account', directory, opts);
  return {
    fetch: async (id): Promise<AccountSettings | undefined> => {
      const text = await accounts.read(id);
      return text === undefined ? undefined : parseAccountSettings(id, text, 'file');
    },
    close: async () => accounts.close(),
  };
};
