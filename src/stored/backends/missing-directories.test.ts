import assert from 'node:assert/strict';
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { describe, it } from 'node:test';
import type { Logger } from '../../core/logger.js';
import { noopMetrics } from '../../metrics/noop.js';
import { silentLogger } from '../../core/logger.js';
import { reportMissingDirectories } from './missing-directories.js';
import { createStoredDataSources } from './stored-data.js';
import type { StoredDataOptions } from './stored-data.js';

const recording = () => {
  const lines: { level: string; msg: string; absolute: string }[] = [];
  const at = (level: string) => (obj: unknown, msg?: string) => void lines.push({ level, msg: msg ?? '', absolute: (obj as { absolute: string }).absolute });
  const logger: Logger = { ...silentLogger, warn: at('warn'), debug: at('debug'), child: () => logger };
  return { logger, lines };
};

describe('reportMissingDirectories', () => {
  const root = mkdtempSync(join(tmpdir(), 'openbid-dirs-'));
  const file = join(root, 'a-file');
  writeFileSync(file, '');

  it('warns of a missing folder with the absolute path a relative one resolves to', () => {
    const { logger, lines } = recording();
    reportMissingDirectories([{ key: 'stored_requests.filesystem.directory', holds: 'stored requests', directory: './no-such-stored-requests' }], logger);
    const absolute = resolve(process.cwd(), 'no-such-stored-requests');
    assert.deepEqual(lines, [
      {
        level: 'warn',
        absolute,
        msg: `stored_requests.filesystem.directory './no-such-stored-requests' is ${absolute}, which does not exist: no stored requests are read from files until it is a directory`,
      },
    ]);
  });

  it('warns of a file where a folder was asked for; says nothing of a folder that exists or of files turned off', () => {
    const { logger, lines } = recording();
    reportMissingDirectories(
      [
        { key: 'accounts.filesystem.directory', holds: 'accounts', directory: file },
        { key: 'stored_requests.filesystem.directory', holds: 'stored requests', directory: root },
        { key: 'stored_imps.filesystem.directory', holds: 'stored imps', directory: '' },
      ],
      logger,
    );
    assert.deepEqual(lines.map((l) => [l.level, l.absolute]), [['warn', file]]);
    assert.match(lines[0]?.msg ?? '', /is not a directory/);
  });

  it('a missing folder whose absence is normal is said at debug only', () => {
    const { logger, lines } = recording();
    reportMissingDirectories([{ key: 'stored_imps.filesystem.directory', holds: 'stored imps', directory: join(root, 'imps'), absentIsNormal: true }], logger);
    assert.deepEqual(lines.map((l) => l.level), ['debug']);
  });
});

describe('createStoredDataSources: missing folders', () => {
  const options = (dirs: { requests: string; imps: string; accounts: string }, logger: Logger, impsDirectoryIsDefault: boolean): StoredDataOptions => ({
    storedRequests: {
      filesystem: { directory: dirs.requests },
      postgres: { connection_string: '', pool_size: 1, timeout_ms: 100, change_notifications: false, change_poll_interval_seconds: 0 },
      http: { endpoint: '', timeout_ms: 100 },
      order: ['filesystem', 'postgres', 'http'],
      cache: { ttl_seconds: 1, miss_ttl_seconds: 1, max_entries: 10, max_bytes: 1 << 20 },
      max_id_length: 256,
    },
    storedImps: { filesystem: { directory: dirs.imps } },
    accounts: { by_id: {}, filesystem: { directory: dirs.accounts }, postgres: { enabled: false }, http: { endpoint: '', timeout_ms: 100 } },
    logger,
    impsDirectoryIsDefault,
    metrics: noopMetrics,
  });

  it('warns of each configured folder that is missing; the default imps folder only at debug', async () => {
    const root = mkdtempSync(join(tmpdir(), 'openbid-dirs-'));
    const dirs = { requests: join(root, 'requests'), imps: join(root, 'imps'), accounts: join(root, 'accounts') };
    for (const [isDefault, warned] of [
      [false, [dirs.requests, dirs.imps, dirs.accounts]],
      [true, [dirs.requests, dirs.accounts]],
    ] as const) {
      const { logger, lines } = recording();
      const sources = await createStoredDataSources(options(dirs, logger, isDefault));
      await sources.close();
      assert.deepEqual(lines.filter((l) => l.level === 'warn' && l.absolute !== undefined).map((l) => l.absolute), warned);
    }
  });
});
