/**
 * Checks a built-in adapter against fixtures in Prebid Server's format, e.g. the files of
 * `adapters/<bidder>/<bidder>test/` in a prebid-server checkout:
 *
 *   npm run check-adapter -- <adapter> <folder or file> [--endpoint URL] [--bidder CODE]
 *     [--extra-info TEXT] [--xapi-username U --xapi-password P --xapi-tracker T] [--server-version V]
 *
 * As Prebid Server's runner, it reads the `exemplary`, `supplemental`, `amp` (AMP entry point),
 * `video` and `videosupplemental` folders. openbid has no `/openrtb2/video`: the video folders run
 * as auctions, and what fails there is listed apart and does not fail the check.
 * Without `--endpoint`, the endpoint is the first `Endpoint: "…"` of a `*_test.go` beside the
 * folder (how the Go test builds the adapter), else the adapter's default. Exits 1 when a case fails.
 */
import { readdirSync, readFileSync, statSync } from 'node:fs';
import { basename, dirname, join, relative } from 'node:path';
import { parseArgs } from 'node:util';
import { BUILTIN_ADAPTERS } from '../src/bidders/builtin.js';
import { checkPbsFixture } from '../test/support/pbs-fixture-check.js';
import type { PbsFixture } from '../test/support/pbs-fixture-check.js';

const RUN_DIRS = new Set(['exemplary', 'supplemental', 'amp', 'video', 'videosupplemental']);
const VIDEO_DIRS = new Set(['video', 'videosupplemental']);

const { values, positionals } = parseArgs({
  allowPositionals: true,
  options: {
    endpoint: { type: 'string' },
    bidder: { type: 'string' },
    'extra-info': { type: 'string' },
    'xapi-username': { type: 'string' },
    'xapi-password': { type: 'string' },
    'xapi-tracker': { type: 'string' },
    'server-version': { type: 'string' },
  },
});
const [adapterName, target] = positionals;
if (adapterName === undefined || target === undefined) {
  process.stderr.write('usage: npm run check-adapter -- <adapter> <folder or file> [--endpoint URL] [--bidder CODE] [--extra-info TEXT]\n');
  process.exit(2);
}
const module = Object.hasOwn(BUILTIN_ADAPTERS, adapterName) ? BUILTIN_ADAPTERS[adapterName] : undefined;
if (module === undefined) {
  process.stderr.write(`no built-in adapter "${adapterName}" (known: ${Object.keys(BUILTIN_ADAPTERS).sort().join(', ')})\n`);
  process.exit(2);
}

const files = statSync(target).isFile()
  ? [target]
  : readdirSync(target, { recursive: true })
      .map((f) => join(target, String(f)))
      .filter((f) => f.endsWith('.json') && RUN_DIRS.has(basename(dirname(f))))
      .sort();

/** A setting the Go test builds the adapter with (`Endpoint`, `ExtraAdapterInfo`), read from a `*_test.go` next to the fixtures. */
const goTestSetting = (field: string): string | undefined => {
  for (const dir of [target, dirname(target), dirname(dirname(target)), dirname(dirname(dirname(target)))]) {
    let names: string[];
    try {
      names = readdirSync(dir).filter((n) => n.endsWith('_test.go'));
    } catch {
      continue;
    }
    for (const name of names) {
      const found = new RegExp(`\\b${field}:\\s*"([^"]*)"`).exec(readFileSync(join(dir, name), 'utf8'));
      if (found !== null) return found[1];
    }
  }
  return undefined;
};

const endpoint = values.endpoint ?? goTestSetting('Endpoint') ?? module.info.endpoint;
const extraInfo = values['extra-info'] ?? goTestSetting('ExtraAdapterInfo');
const xapi =
  values['xapi-username'] !== undefined ? { username: values['xapi-username'], password: values['xapi-password'] ?? '', tracker: values['xapi-tracker'] ?? '' } : undefined;
let failed = 0;
let worded = 0;
const videoFailures: string[] = [];
for (const file of files) {
  const where = basename(dirname(file));
  let problems: string[];
  let wording: string[] = [];
  try {
    const fixture = JSON.parse(readFileSync(file, 'utf8')) as PbsFixture;
    ({ problems, wording } = checkPbsFixture(module, fixture, {
      endpoint,
      bidderCode: values.bidder ?? adapterName,
      entryPoint: where === 'amp' ? 'amp' : 'auction',
      host: {
        ...(extraInfo !== undefined ? { extraInfo } : {}),
        ...(values['server-version'] !== undefined ? { serverVersion: values['server-version'] } : {}),
        ...(xapi !== undefined ? { xapi } : {}),
      },
    }));
  } catch (err) {
    problems = [`threw: ${(err as Error).stack ?? String(err)}`];
  }
  const name = relative(process.cwd(), file);
  if (problems.length === 0 && wording.length > 0) worded++;
  if (problems.length === 0) {
    process.stdout.write(`ok    ${name}\n${wording.map((w) => `      error worded otherwise: ${w}\n`).join('')}`);
    continue;
  }
  process.stdout.write(`FAIL  ${name}\n${problems.map((p) => `      ${p}`).join('\n')}\n`);
  if (VIDEO_DIRS.has(where)) videoFailures.push(name);
  else failed++;
}
process.stdout.write(
  `\n${files.length} cases with endpoint ${endpoint}: ${files.length - failed - videoFailures.length} pass (${worded} with an error worded otherwise), ${failed} fail` +
    (videoFailures.length > 0 ? `, ${videoFailures.length} video-endpoint cases fail (openbid has no /openrtb2/video)` : '') +
    '\n',
);
process.exit(failed > 0 ? 1 : 0);
