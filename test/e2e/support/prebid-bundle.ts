import { build } from 'esbuild';

const root = new URL('../../../', import.meta.url).pathname;

/**
 * The Prebid.js modules the test pages use, imported the way Prebid.js's README ("Usage as a
 * npm dependency") says a publisher's build does: the core, then each module, then
 * `processQueue()` so the page's `pbjs.que` runs. The server-to-server adapter is the only bid
 * adapter: every bidder is one openbid runs. Video caching (`cache.url`) is in the core.
 */
const ENTRY = `
import pbjs from 'prebid.js';
import 'prebid.js/modules/prebidServerBidAdapter';
pbjs.processQueue();
`;

/**
 * Bundles Prebid.js from the `prebid.js` npm package (its precompiled ES modules under
 * `dist/src`) into one script for a browser, in memory. esbuild is enough: the package's
 * build options (global name `pbjs`, feature flags) are already resolved in what it ships.
 */
export const buildPrebidBundle = async (): Promise<string> => {
  const result = await build({
    stdin: { contents: ENTRY, resolveDir: root, sourcefile: 'prebid-e2e-entry.js', loader: 'js' },
    bundle: true,
    format: 'iife',
    target: 'es2020',
    platform: 'browser',
    write: false,
    logLevel: 'silent',
  });
  const file = result.outputFiles[0];
  if (file === undefined) throw new Error('esbuild produced no Prebid.js bundle');
  return file.text;
};
