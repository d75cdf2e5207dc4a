import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import Type from 'typebox';
import type { AdapterModule } from '../bidders/adapter.js';
import { genericAdapter } from '../bidders/generic/index.js';
import { createBidderRegistry } from '../bidders/registry.js';
import type { BidRequest } from '../openrtb/types.js';
import { splitByBidder } from './split.js';

const bannerOnly: AdapterModule = {
  info: { endpoint: 'http://banner.test/', mediaTypes: { site: ['banner'], app: ['banner'] }, paramsSchema: Type.Object({ id: Type.Integer() }) },
  adapter: genericAdapter.adapter,
};
const registry = createBidderRegistry({ generic: genericAdapter, bannerbidder: bannerOnly }, {
  alpha: { adapter: 'generic', endpoint: 'http://alpha.test/', enabled: true },
  off: { adapter: 'generic', endpoint: 'http://off.test/', enabled: false },
});

const request = (imps: BidRequest['imp'], ext: BidRequest['ext'] = {}): BidRequest => ({ id: 'r', site: { page: 'p' }, imp: imps, ext });

describe('splitByBidder', () => {
  it('calls a bidder only on the channels it supports: dooh before app before site, once-a-bidder warning otherwise', () => {
    const imps = [
      { id: 'i1', banner: { w: 1, h: 1 }, ext: { prebid: { bidder: { alpha: {}, bannerbidder: { id: 1 } } } } },
      { id: 'i2', banner: { w: 1, h: 1 }, ext: { prebid: { bidder: { bannerbidder: { id: 2 } } } } },
    ];
    const dooh = splitByBidder({ id: 'r', dooh: { id: 'screen-1' }, app: { id: 'a' }, imp: imps }, registry);
    // generic supports dooh; the banner-only adapter declares site and app only.
    assert.deepEqual(dooh.shares.map((s) => s.bidder.code), ['alpha']);
    assert.deepEqual(dooh.warnings, [{ bidder: 'bannerbidder', message: 'this bidder does not support dooh requests' }]);
    const appOnly = createBidderRegistry({ generic: genericAdapter, apponly: { ...bannerOnly, info: { ...bannerOnly.info, capabilities: { app: ['banner'] } } } }, {});
    const site = splitByBidder(request([{ id: 'i1', banner: { w: 1, h: 1 }, ext: { prebid: { bidder: { apponly: { id: 1 } } } } }]), appOnly);
    assert.deepEqual(site.shares, []);
    assert.deepEqual(site.warnings, [{ bidder: 'apponly', message: 'this bidder does not support site requests' }]);
    const app = splitByBidder({ id: 'r', app: { id: 'a' }, imp: [{ id: 'i1', banner: { w: 1, h: 1 }, ext: { prebid: { bidder: { apponly: { id: 1 } } } } }] }, appOnly);
    assert.deepEqual(app.shares.map((s) => s.bidder.code), ['apponly']);
  });

  it('gives each bidder only its imps with its own params, and strips exchange-only request ext', () => {
    const out = splitByBidder(
      request(
        [
          { id: 'i1', banner: { w: 1, h: 1 }, ext: { prebid: { bidder: { alpha: { a: 1 }, bannerbidder: { id: 4 } }, adunitcode: 'slot' }, gpid: 'g' } },
          { id: 'i2', video: { mimes: ['video/mp4'] }, ext: { prebid: { bidder: { alpha: { a: 2 } } } } },
        ],
        { prebid: { targeting: {}, cache: { bids: {} }, channel: { name: 'pbjs' }, bidderparams: { alpha: { wrapper: 1 }, other: { x: 1 } } }, other: 1 },
      ),
      registry,
    );
    assert.deepEqual(out.shares.map((s) => [s.bidder.code, s.request.imp.map((i) => i.id)]), [['alpha', ['i1', 'i2']], ['bannerbidder', ['i1']]]);
    const alpha = out.shares[0]!.request;
    assert.deepEqual(alpha.imp[0]!.ext, { gpid: 'g', prebid: { adunitcode: 'slot' }, bidder: { a: 1 } });
    assert.deepEqual(alpha.imp[1]!.ext, { bidder: { a: 2 } });
    assert.deepEqual(alpha.ext, { prebid: { channel: { name: 'pbjs' }, bidderparams: { wrapper: 1 } }, other: 1 });
    assert.deepEqual(out.shares[1]!.request.ext, { prebid: { channel: { name: 'pbjs' } }, other: 1 });
    assert.deepEqual(out.warnings, []);
    assert.deepEqual(out.errors, []);
  });

  it('reads the legacy imp.ext.<bidder> form', () => {
    const out = splitByBidder(request([{ id: 'i1', banner: { w: 1, h: 1 }, ext: { alpha: { a: 1 }, data: { x: 1 } } }]), registry);
    assert.equal(out.shares.length, 1);
    assert.deepEqual(out.shares[0]!.request.imp[0]!.ext, { data: { x: 1 }, bidder: { a: 1 } });
  });

  it('warns of unknown and disabled bidders once each, and resolves aliases under their own code', () => {
    const out = splitByBidder(
      request(
        [
          { id: 'i1', banner: { w: 1, h: 1 }, ext: { prebid: { bidder: { nosuch: {}, off: {}, mine: { a: 3 } } } } },
          { id: 'i2', banner: { w: 1, h: 1 }, ext: { prebid: { bidder: { nosuch: {} } } } },
        ],
        { prebid: { aliases: { mine: 'alpha' } } },
      ),
      registry,
    );
    assert.deepEqual(out.warnings.map((w) => w.bidder), ['nosuch', 'off']);
    assert.match(out.warnings[1]!.message, /disabled/);
    assert.deepEqual(out.shares.map((s) => [s.bidder.code, s.bidder.baseCode, s.bidder.endpoint]), [['mine', 'alpha', 'http://alpha.test/']]);
  });

  it('drops an imp whose params fail the schema (an error) and media types the bidder does not support', () => {
    const out = splitByBidder(
      request([
        { id: 'i1', banner: { w: 1, h: 1 }, video: { mimes: ['v'] }, ext: { prebid: { bidder: { bannerbidder: { id: 1 } } } } },
        { id: 'i2', banner: { w: 1, h: 1 }, ext: { prebid: { bidder: { bannerbidder: { id: 'x' } } } } },
        { id: 'i3', video: { mimes: ['v'] }, ext: { prebid: { bidder: { bannerbidder: { id: 2 } } } } },
      ]),
      registry,
    );
    assert.equal(out.shares.length, 1);
    const imp = out.shares[0]!.request.imp;
    assert.deepEqual(imp.map((i) => i.id), ['i1']);
    assert.equal(imp[0]!.video, undefined);
    assert.equal(out.errors.length, 1);
    assert.match(out.errors[0]!.message, /imp\[1\].*bannerbidder failed validation\.\n"id": must be integer/s);
    assert.match(out.warnings[0]!.message, /imp\[2\] offers no media type bannerbidder supports/);
  });
});

describe('createBidderRegistry', () => {
  it('refuses a config naming an unknown adapter or a generic bidder without endpoint, listing both', () => {
    assert.throws(
      () => createBidderRegistry({ generic: genericAdapter }, { a: { adapter: 'nope', endpoint: 'x', enabled: true }, b: { adapter: 'generic', endpoint: '', enabled: true } }),
      /adapters\.a\.adapter: no built-in adapter named "nope".*\n.*adapters\.b\.endpoint: required/s,
    );
  });
  it('serves built-in adapters by their own code with their default endpoint, never generic itself', () => {
    assert.equal(registry.get('bannerbidder')?.endpoint, 'http://banner.test/');
    assert.equal(registry.get('generic'), undefined);
    assert.equal(registry.get('off'), undefined);
    assert.ok(registry.isDisabled('off'));
  });
});
