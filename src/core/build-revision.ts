import { readFileSync } from 'node:fs';

/**
 * The git revision the running build was made from, as `npm run build` wrote it into
 * `build-info.json` (scripts/build-info.mjs), for `/version`. Never throws: a missing or unreadable
 * file (running from source, or a build made without one) or one naming no revision is `unknown`.
 */
export const readBuildRevision = (file: URL): string => {
  try {
    const revision = (JSON.parse(readFileSync(file, 'utf8')) as { revision?: unknown }).revision;
    return typeof revision === 'string' && revision !== '' ? revision : 'unknown';
  } catch {
    return 'unknown';
  }
};
