import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import type { AdapterModule } from './adapter.js';
import { appnexusAdapter } from './appnexus/index.js';
import { createBidderDiscovery } from './discovery.js';
import type { DiscoverySetting } from './discovery.js';
import { genericAdapter } from './generic/index.js';

const withInfo = (module: AdapterModule, info: Partial<AdapterModule['info']>): AdapterModule => ({ ...module, info: { ...module.info, ...info } });

/** appnexus, a built-in alias of it (as adform of adf), and one shipped disabled. */
const BUILTINS: Record<string, AdapterModule> = {
  appnexus: appnexusAdapter,
  anx: withInfo(appnexusAdapter, { aliasOf: 'appnexus', maintainer: undefined }),
  shippedoff: withInfo(appnexusAdapter, { disabled: true, endpoint: 'https://off.example/' }),
  generic: genericAdapter,
};
const list = (settings: Record<string, DiscoverySetting>, enabledOnly: boolean, baseAdaptersOnly: boolean): unknown =>
  JSON.parse(createBidderDiscovery(BUILTINS, settings).listJson({ enabledOnly, baseAdaptersOnly }));

describe('createBidderDiscovery', () => {
  it('a built-in alias is an alias, a built-in shipped disabled is disabled until configured', () => {
    assert.deepEqual(list({}, false, false), ['anx', 'appnexus', 'shippedoff']);
    assert.deepEqual(list({}, false, true), ['appnexus', 'shippedoff']);
    assert.deepEqual(list({}, true, false), ['anx', 'appnexus']);
    assert.deepEqual(list({}, true, true), ['appnexus']);
    assert.deepEqual(list({ shippedoff: { endpoint: '', enabled: true } }, true, true), ['appnexus', 'shippedoff']);
    const d = createBidderDiscovery(BUILTINS, {});
    assert.equal((JSON.parse(d.detailJson('anx') ?? '{}') as { aliasOf?: string }).aliasOf, 'appnexus');
    assert.deepEqual(JSON.parse(d.detailJson('shippedoff') ?? '{}'), { status: 'DISABLED', maintainer: { email: 'prebid@microsoft.com' } });
  });

  it('a configured code naming a built-in alias is an alias of its target; naming its own adapter, a base adapter', () => {
    const d = createBidderDiscovery(BUILTINS, { x: { adapter: 'anx', endpoint: '', enabled: true }, appnexus: { endpoint: 'HTTPS://ib.example/', enabled: true } });
    assert.equal((JSON.parse(d.detailJson('x') ?? '{}') as { aliasOf?: string }).aliasOf, 'appnexus');
    const anx = JSON.parse(d.detailJson('appnexus') ?? '{}') as { aliasOf?: string; usesHttps?: boolean };
    assert.equal(anx.aliasOf, undefined);
    // The configured endpoint decides, whatever its case.
    assert.equal(anx.usesHttps, true);
  });

  it('prototype-named codes are plain bidders: in the lists, `all` and params, and found only when configured', () => {
    const settings: Record<string, DiscoverySetting> = Object.create(null) as Record<string, DiscoverySetting>;
    settings.__proto__ = { adapter: 'generic', endpoint: 'http://127.0.0.1:1/', enabled: true };
    const d = createBidderDiscovery(BUILTINS, settings);
    assert.ok((JSON.parse(d.listJson({ enabledOnly: true, baseAdaptersOnly: false })) as string[]).includes('__proto__'));
    assert.equal((JSON.parse(d.detailJson('__proto__') ?? '{}') as { aliasOf?: string }).aliasOf, 'generic');
    assert.ok(Object.hasOwn(JSON.parse(d.detailJson('all') ?? '{}') as object, '__proto__'));
    assert.ok(Object.hasOwn(JSON.parse(d.paramsJson()) as object, '__proto__'));
    assert.equal(d.detailJson('constructor'), undefined);
    assert.equal(createBidderDiscovery(BUILTINS, {}).detailJson('__proto__'), undefined);
  });

  it('codes differing only in case: both listed, the first in order answers a lookup', () => {
    const d = createBidderDiscovery(BUILTINS, { Foo: { adapter: 'generic', endpoint: 'https://a/', enabled: true }, foo: { adapter: 'generic', endpoint: 'http://b/', enabled: true } });
    assert.deepEqual(JSON.parse(d.listJson({ enabledOnly: false, baseAdaptersOnly: false })), ['Foo', 'anx', 'appnexus', 'foo', 'shippedoff']);
    assert.equal((JSON.parse(d.detailJson('FOO') ?? '{}') as { usesHttps?: boolean }).usesHttps, true);
  });
});
