import assert from 'node:assert/strict';
import { existsSync, readFileSync } from 'node:fs';
import { describe, it } from 'node:test';
import type { AdapterModule } from './adapter.js';
import { BUILTIN_ADAPTERS } from './builtin.js';

/**
 * docs/bidders/README.md lists what every adapter's info says (OpenRTB version, compression); these
 * lists are written by hand, so this keeps them true as adapters are added.
 */
const index = readFileSync('docs/bidders/README.md', 'utf8');
const adapters = Object.entries(BUILTIN_ADAPTERS).filter(([, m]) => m.info.aliasOf === undefined);
const codes = (keep: (m: AdapterModule) => boolean): string[] => adapters.filter(([, m]) => keep(m)).map(([code]) => code).sort();
/** The codes in backquotes of the text from `start` to the end of its bullet. */
const listed = (start: string): string[] => {
  const from = index.indexOf(start);
  assert.ok(from >= 0, `docs/bidders/README.md has no "${start}"`);
  const end = index.indexOf('\n- ', from + start.length);
  return [...new Set([...index.slice(from + start.length, end < 0 ? undefined : end).matchAll(/`([\w-]+)`/g)].map((m) => m[1]!))].sort();
};

describe('docs/bidders', () => {
  it('every built-in adapter has its page and its row in the index', () => {
    for (const [code] of adapters) {
      assert.ok(existsSync(`docs/bidders/${code}.md`), `docs/bidders/${code}.md`);
      assert.match(index, new RegExp(`^\\| \\[\`${code}\`\\]\\(${code}\\.md\\)`, 'm'), `row of ${code}`);
    }
  });
  it('the OpenRTB version lists match the adapters', () => {
    const versions = index.slice(index.indexOf('  2.6: '), index.indexOf('\n- ', index.indexOf('  2.6: ')));
    const [six, five] = versions.split('2.5:');
    const inText = (text: string | undefined): string[] => [...(text ?? '').matchAll(/`([\w-]+)`/g)].map((m) => m[1]!).sort();
    assert.deepEqual(inText(six), codes((m) => m.info.openrtbVersion === '2.6'));
    assert.deepEqual(inText(five), codes((m) => m.info.openrtbVersion !== '2.6'));
  });
  it('the compression and shipped-disabled lists match the adapters', () => {
    assert.deepEqual(
      listed('body uncompressed and the headers as sent.').filter((c) => c !== 'endpointCompression'),
      codes((m) => m.info.endpointCompression === 'gzip'),
    );
    assert.deepEqual(listed('as Prebid Server ships them):').filter((c) => Object.hasOwn(BUILTIN_ADAPTERS, c) && !c.includes('.')), codes((m) => m.info.disabled === true));
  });
});
