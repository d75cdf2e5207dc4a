// Run by `npm run build` after tsc: writes dist/build-info.json, {"revision": "<git commit>"},
// which the admin listener's /version answers. OPENBID_REVISION wins (a container build has no
// .git: `docker build --build-arg OPENBID_REVISION=$(git rev-parse HEAD)`); else the checkout's
// HEAD; else "unknown".
import { execFileSync } from 'node:child_process';
import { mkdirSync, writeFileSync } from 'node:fs';

const root = new URL('..', import.meta.url);
const fromGit = () => {
  try {
    return execFileSync('git', ['rev-parse', 'HEAD'], { cwd: root, stdio: ['ignore', 'pipe', 'ignore'], timeout: 5000 }).toString().trim();
  } catch {
    return '';
  }
};
const revision = process.env.OPENBID_REVISION || fromGit() || 'unknown';
mkdirSync(new URL('dist/', root), { recursive: true });
writeFileSync(new URL('dist/build-info.json', root), `${JSON.stringify({ revision })}\n`);
