import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { runAdapterFixtureDir } from '../../../test/support/adapter-fixtures.js';
import { compileParamsCheck } from '../params.js';
import { parseAdSlot } from './ad-slot.js';
import { goAtoi, goFormatFloat, goParseFloat, goTrimSpace } from '../go-text.js';
import { parseImp } from './imp.js';
import { addFirstPartyData, addKeywords, stringArray } from './imp-targeting.js';
import type { ImpExtMap } from './imp-targeting.js';
import { pubmaticAdapter } from './index.js';
import { rawMember } from './json-raw.js';
import { makeBids, nativeAdm } from './make-bids.js';
import { allowedBidders, appDisplayManager, readRequestExt } from './request-ext.js';

runAdapterFixtureDir('src/bidders/pubmatic/fixtures', pubmaticAdapter);

describe('pubmatic info', () => {
  it('calls the translator, bids on banner, video and native, and is GVL vendor 76', () => {
    assert.equal(pubmaticAdapter.info.endpoint, 'https://hbopenbid.pubmatic.com/translator?source=prebid-server');
    assert.deepEqual(pubmaticAdapter.info.mediaTypes, { site: ['banner', 'video', 'native'], app: ['banner', 'video', 'native'] });
    assert.equal(pubmaticAdapter.info.gvlVendorId, 76);
  });
});

describe('pubmatic params', () => {
  const check = compileParamsCheck(pubmaticAdapter.info.paramsSchema);
  const valid: unknown[] = [
    { publisherId: '5610' },
    { publisherId: '5610', adSlot: '' },
    { publisherId: '5610', adSlot: 'Slot_A' },
    { publisherId: '5610', adSlot: 'Slot_A@970x250' },
    { publisherId: '5610', adSlot: 'Slot_A@970x250', keywords: [{ key: 'pmZoneID', value: ['z9'] }, { key: 'dctr', value: ['a', 'b'] }] },
    { publisherId: '5610', adSlot: 'Slot_A@970x250', keywords: [{ key: 'pmZoneID', value: ['z9', 'z10'] }], wrapper: { profile: 88 } },
    { publisherId: '5610', kadfloor: '0.2', pmzoneid: 'a,b', dctr: 'k=v', acat: ['IAB25'], wrapper: { profile: 88, version: 2 }, somethingElse: true },
  ];
  const invalid: unknown[] = [
    undefined,
    null,
    true,
    7,
    3.5,
    [],
    {},
    { adSlot: 'Slot_A@970x250:1' },
    { adSlot: 'Slot_A@970x250:1', publisherId: 5610 },
    { adSlot: 77, publisherId: '5610' },
    { adSlot: 77, publisherId: 5610 },
    { adSlot: 'Slot_A@970x250', publisherId: '5610', keywords: [] },
    { adSlot: 'Slot_A@970x250', publisherId: '5610', keywords: ['bar'] },
    { adSlot: 'Slot_A@970x250', publisherId: '5610', keywords: [{ key: 'bar', value: [] }] },
    { adSlot: 'Slot_A@970x250', publisherId: '5610', keywords: [{ key: 'bar' }] },
    { adSlot: 'Slot_A@970x250', publisherId: '5610', keywords: [{ value: [] }] },
    { adSlot: 'Slot_A@970x250', publisherId: '5610', wrapper: {} },
    { adSlot: 'Slot_A@970x250', publisherId: '5610', wrapper: { version: '2', profile: 88 } },
    { adSlot: 'Slot_A@970x250', publisherId: '5610', wrapper: { version: '2' } },
    { adSlot: 'Slot_A@970x250', publisherId: '5610', keywords: [{ key: 'pmZoneID', value: ['9'] }], wrapper: { version: 2, profile: '88' } },
    { publisherId: '5610', wrapper: { profile: 1.5 } },
    { publisherId: '5610', acat: ['IAB25', 3] },
  ];
  for (const params of valid) it(`accepts ${JSON.stringify(params)}`, () => assert.deepEqual(check(params), []));
  for (const params of invalid) it(`rejects ${JSON.stringify(params)}`, () => assert.ok(check(params).length > 0));
});

describe('pubmatic adSlot', () => {
  it('reads the three forms', () => {
    assert.deepEqual(parseAdSlot(''), { slot: {} });
    assert.deepEqual(parseAdSlot('  '), { slot: {} });
    assert.deepEqual(parseAdSlot(' Slot_B '), { slot: { tagid: 'Slot_B' } });
    assert.deepEqual(parseAdSlot('Slot_B@300x600'), { slot: { tagid: 'Slot_B', size: { w: 300, h: 600 } } });
  });
  it('takes any case of x, spaces around numbers, and ignores what follows a colon in the height', () => {
    assert.deepEqual(parseAdSlot('Slot_B @ 300 X 600 '), { slot: { tagid: 'Slot_B', size: { w: 300, h: 600 } } });
    assert.deepEqual(parseAdSlot('Slot_B@300x600:2'), { slot: { tagid: 'Slot_B', size: { w: 300, h: 600 } } });
    assert.deepEqual(parseAdSlot('Slot_B@0x0'), { slot: { tagid: 'Slot_B', size: { w: 0, h: 0 } } });
  });
  it('words each malformed form as Prebid Server does', () => {
    assert.deepEqual(parseAdSlot('@300x600'), { error: 'Invalid adSlot @300x600' });
    assert.deepEqual(parseAdSlot('a@b@300x600'), { error: 'Invalid adSlot a@b@300x600' });
    assert.deepEqual(parseAdSlot('Slot_B@300x600x1'), { error: 'Invalid size provided in adSlot Slot_B@300x600x1' });
    assert.deepEqual(parseAdSlot('Slot_B@3.5x600'), { error: 'Invalid width provided in adSlot Slot_B@3.5x600' });
    assert.deepEqual(parseAdSlot('Slot_B@300x:600'), { error: 'Invalid height provided in adSlot Slot_B@300x:600' });
  });
});

describe('pubmatic Go text rules', () => {
  it('trims Go spaces only', () => {
    assert.equal(goTrimSpace('\u0085\t a b \u3000'), 'a b');
    assert.equal(goTrimSpace('\ufeffa'), '\ufeffa');
  });
  it('parses integers as Atoi does', () => {
    assert.equal(goAtoi('+12'), 12);
    assert.equal(goAtoi('-3'), -3);
    assert.equal(goAtoi('007'), 7);
    assert.equal(goAtoi(''), undefined);
    assert.equal(goAtoi('1_000'), undefined);
    assert.equal(goAtoi('9223372036854775808'), undefined);
  });
  it('parses decimal floats and refuses what is not a finite floor', () => {
    assert.equal(goParseFloat('0.13'), 0.13);
    assert.equal(goParseFloat('.5'), 0.5);
    assert.equal(goParseFloat('2.'), 2);
    assert.equal(goParseFloat('1e-2'), 0.01);
    for (const s of ['aaa', '', '1e400', 'inf', 'NaN', '0x1p-2', '1_0', ' 1']) assert.equal(goParseFloat(s), undefined, s);
  });
  it('prints numbers as %v does', () => {
    assert.equal(goFormatFloat(25), '25');
    assert.equal(goFormatFloat(0.15), '0.15');
    assert.equal(goFormatFloat(1.25), '1.25');
    assert.equal(goFormatFloat(123456), '123456');
    assert.equal(goFormatFloat(1000000), '1e+06');
    assert.equal(goFormatFloat(12345678), '1.2345678e+07');
    assert.equal(goFormatFloat(0.0001), '0.0001');
    assert.equal(goFormatFloat(0.00001), '1e-05');
    assert.equal(goFormatFloat(-2.5e-7), '-2.5e-07');
    assert.equal(goFormatFloat(1e21), '1e+21');
    assert.equal(goFormatFloat(-0), '-0');
  });
});

describe('pubmatic keywords and first-party data', () => {
  const run = (data: unknown, start: Record<string, string> = {}): Record<string, unknown> => {
    const ext: ImpExtMap = new Map(Object.entries(start));
    addFirstPartyData(data, ext);
    return Object.fromEntries(ext);
  };
  it('joins keyword values, renames pmZoneID and skips keywords without values', () => {
    const ext: ImpExtMap = new Map();
    addKeywords([{ key: 'pmZoneID', value: ['z1', 'z2'] }, { key: 'color', value: [' red'] }, { key: 'empty', value: [] }], ext);
    assert.deepEqual(Object.fromEntries(ext), { pmZoneId: 'z1,z2', color: ' red' });
  });
  it('makes key_val of targeting data', () => assert.deepEqual(run({ team: ['lions', 'tigers'] }), { key_val: 'team=lions,tigers' }));
  it('takes the GAM ad unit before pbadslot', () => {
    assert.deepEqual(run({ adserver: { name: 'gam', adslot: '/42/home' }, pbadslot: '/43/home', team: ['lions'] }), { dfp_ad_unit_code: '/42/home', key_val: 'team=lions' });
  });
  it('takes pbadslot when there is no GAM ad unit', () => {
    assert.deepEqual(run({ pbadslot: '/43/home', team: ['lions'] }), { dfp_ad_unit_code: '/43/home', key_val: 'team=lions' });
    assert.deepEqual(run({ adserver: { name: 'other', adslot: '/42/home' }, pbadslot: '/43/home' }), { dfp_ad_unit_code: '/43/home' });
  });
  it('ignores an adserver that is not an object', () => assert.deepEqual(run({ adserver: 'bad', team: ['lions'] }), { key_val: 'team=lions' }));
  it('appends to a key_val already there', () => assert.deepEqual(run({ team: ['lions'] }, { key_val: 'a=1|b=2' }), { key_val: 'a=1|b=2|team=lions' }));
  it('prints integers, floats and booleans as Go does', () => {
    assert.deepEqual(run({ age: 41 }), { key_val: 'age=41' });
    assert.deepEqual(run({ floor: 0.25 }), { key_val: 'floor=0.25' });
    assert.deepEqual(run({ big: 2000000 }), { key_val: 'big=2e+06' });
    assert.deepEqual(run({ flag: false }), { key_val: 'flag=false' });
  });
  it('trims keys and values', () => {
    assert.deepEqual(run({ '  genre ': '  drama ' }), { key_val: 'genre=drama' });
    assert.deepEqual(run({ ' city\t': [' Lyon', '\tNice '] }), { key_val: 'city=Lyon,Nice' });
  });
  it('skips arrays that are not all strings, and keeps the empty segment Go leaves', () => {
    assert.deepEqual(run({ mixed: [1, 'x'], genre: 'drama' }), { key_val: 'genre=drama' });
    assert.deepEqual(run({ a: 'x', b: { nested: true }, c: 'y' }), { key_val: 'a=x||c=y' });
    assert.deepEqual(run({ a: 'x', b: null }), { key_val: 'a=x' });
  });
  it('does nothing without data', () => {
    assert.deepEqual(run(undefined), {});
    assert.deepEqual(run(null), {});
    assert.deepEqual(run('text'), {});
  });
  it('keeps only string arrays', () => {
    assert.deepEqual(stringArray(['a ', ' b']), ['a', 'b']);
    assert.equal(stringArray([1, 2]), undefined);
  });
});

describe('pubmatic imp', () => {
  const video = { mimes: ['video/mp4'] };
  const floorOf = (bidfloor: number | undefined, kadfloor: string | undefined): unknown => {
    const r = parseImp({ id: 'i', video, ...(bidfloor !== undefined ? { bidfloor } : {}), ext: { bidder: kadfloor === undefined ? {} : { kadfloor } } }, { wantWrapper: false });
    assert.ok(!('error' in r));
    return r.imp.bidfloor;
  };
  it('uses the higher of kadfloor and bidfloor', () => {
    assert.equal(floorOf(undefined, '0.12'), 0.12);
    assert.equal(floorOf(0.12, undefined), 0.12);
    assert.equal(floorOf(0.12, 'aaa'), 0.12);
    assert.equal(floorOf(0.12, '0.11'), 0.12);
    assert.equal(floorOf(0.12, '0.13'), 0.13);
    assert.equal(floorOf(0.12, ' \t  0.13  '), 0.13);
  });
  const dm = { name: 'prebid-mobile', version: '1.0.0' };
  it('fills the display manager only when the imp names neither', () => {
    const a = parseImp({ id: 'i', video, ext: { bidder: {} } }, { wantWrapper: false, displayManager: dm });
    assert.ok(!('error' in a));
    assert.equal(a.imp['displaymanager'], 'prebid-mobile');
    assert.equal(a.imp['displaymanagerver'], '1.0.0');
    const b = parseImp({ id: 'i', video, displaymanagerver: '3.0', ext: { bidder: {} } }, { wantWrapper: false, displayManager: dm });
    assert.ok(!('error' in b));
    assert.equal(b.imp['displaymanager'], undefined);
    assert.equal(b.imp['displaymanagerver'], '3.0');
    const c = parseImp({ id: 'i', video, displaymanager: 'own-sdk', displaymanagerver: '3.0', ext: { bidder: {} } }, { wantWrapper: false, displayManager: dm });
    assert.ok(!('error' in c));
    assert.equal(c.imp['displaymanager'], 'own-sdk');
  });
  it('reads the wrapper only when asked, and reports a bad one', () => {
    const bidder = { publisherId: ' 9 ', wrapper: { profile: 3, version: 4 } };
    const asked = parseImp({ id: 'i', video, ext: { bidder } }, { wantWrapper: true });
    assert.deepEqual(asked, { imp: { id: 'i', video }, publisherId: '9', wrapper: { profile: 3, version: 4 } });
    const notAsked = parseImp({ id: 'i', video, ext: { bidder } }, { wantWrapper: false });
    assert.deepEqual(notAsked, { imp: { id: 'i', video }, publisherId: '9' });
    const bad = parseImp({ id: 'i', video, ext: { bidder: { wrapper: { profile: 'x' } } } }, { wantWrapper: true });
    assert.deepEqual(bad, { error: 'Error in Wrapper Parameters = wrapper.profile must be an integer  for ImpID = i WrapperExt = {"profile":"x"}' });
  });
  it('refuses an imp without bidder params or with a mistyped ae', () => {
    assert.ok('error' in parseImp({ id: 'i', video }, { wantWrapper: false }));
    assert.ok('error' in parseImp({ id: 'i', video, ext: { bidder: {}, ae: '1' } }, { wantWrapper: false }));
  });
  it('keeps a key named __proto__ as a plain key', () => {
    const r = parseImp({ id: 'i', video, ext: { bidder: { keywords: [{ key: '__proto__', value: ['x'] }] } } }, { wantWrapper: false });
    assert.ok(!('error' in r));
    assert.equal(JSON.stringify(r.imp.ext), '{"__proto__":"x"}');
  });
});

describe('pubmatic request ext', () => {
  it('reads nothing without a request ext', () => {
    assert.deepEqual(readRequestExt(undefined, 'pubmatic'), { ext: {} });
  });
  it('makes a wrapper naming the bidder code from empty bidder params', () => {
    assert.deepEqual(readRequestExt({ prebid: { bidderparams: {} } }, 'pubmatic'), { ext: { wrapper: { biddercode: 'pubmatic' } } });
  });
  it('reads wrapper and acat (trimmed)', () => {
    assert.deepEqual(readRequestExt({ prebid: { bidderparams: { acat: [' drg \t', 'dlu'], wrapper: { profile: 123, version: 456 } } } }, 'pubmatic'), {
      ext: { wrapper: { profile: 123, version: 456, biddercode: 'pubmatic' }, acat: ['drg', 'dlu'] },
    });
  });
  it('names an alias as the bidder code', () => {
    assert.deepEqual(readRequestExt({ prebid: { bidderparams: { wrapper: { profile: 1, version: 2 } } } }, 'pm-alt'), { ext: { wrapper: { profile: 1, version: 2, biddercode: 'pm-alt' } } });
  });
  it('fails on bidder params of the wrong shape', () => {
    assert.ok('error' in readRequestExt({ prebid: { bidderparams: '}}}' } }, 'pubmatic'));
    assert.ok('error' in readRequestExt({ prebid: { bidderparams: { acat: [1, 3, 4] } } }, 'pubmatic'));
    assert.ok('error' in readRequestExt({ prebid: { bidderparams: { wrapper: '123' } } }, 'pubmatic'));
    assert.ok('error' in readRequestExt('ext', 'pubmatic'));
  });
  it('adds the marketplace from alternate bidder codes', () => {
    assert.deepEqual(readRequestExt({ prebid: { alternatebiddercodes: { enabled: true, bidders: { pubmatic: { enabled: true, allowedbiddercodes: ['groupx'] } } } } }, 'pubmatic'), {
      ext: { wrapper: { biddercode: 'pubmatic' }, marketplace: { allowedbidders: ['pubmatic', 'groupx'] } },
    });
  });
  it('lists the allowed bidder codes as Prebid Server does', () => {
    const abc = (pubmatic: unknown, enabled = true): unknown => ({ enabled, bidders: { pubmatic } });
    assert.deepEqual(allowedBidders(undefined, 'pubmatic'), {});
    assert.deepEqual(allowedBidders({}, 'pubmatic'), { allowed: ['pubmatic'] });
    assert.deepEqual(allowedBidders(abc({ enabled: true, allowedbiddercodes: ['groupx'] }, false), 'pubmatic'), { allowed: ['pubmatic'] });
    assert.deepEqual(allowedBidders(abc({ enabled: false, allowedbiddercodes: ['groupx'] }), 'pubmatic'), { allowed: ['pubmatic'] });
    assert.deepEqual(allowedBidders(abc({ enabled: true }), 'pubmatic'), { allowed: ['all'] });
    assert.deepEqual(allowedBidders(abc({ enabled: true, allowedbiddercodes: ['*'] }), 'pubmatic'), { allowed: ['all'] });
    assert.deepEqual(allowedBidders(abc({ enabled: true, allowedbiddercodes: [] }), 'pubmatic'), { allowed: ['pubmatic'] });
    assert.deepEqual(allowedBidders(abc({ enabled: true, allowedbiddercodes: ['groupx'] }), 'pubmatic'), { allowed: ['pubmatic', 'groupx'] });
    // Called as an alias, Prebid Server's exchange hands on no `pubmatic` entry.
    assert.deepEqual(allowedBidders(abc({ enabled: true, allowedbiddercodes: ['groupx'] }), 'pm-alt'), { allowed: ['pubmatic'] });
  });
  it('finds the SDK in app.ext.prebid first, then app.ext', () => {
    assert.equal(appDisplayManager({ ext: {} }), undefined);
    assert.deepEqual(appDisplayManager({ ext: { source: 'prebid-mobile', version: '1.0.0' } }), { name: 'prebid-mobile', version: '1.0.0' });
    assert.deepEqual(appDisplayManager({ ext: { prebid: { source: 'prebid-mobile', version: '1.0.0' } } }), { name: 'prebid-mobile', version: '1.0.0' });
    assert.equal(appDisplayManager({ ext: { version: '1.0.0' } }), undefined);
    assert.equal(appDisplayManager({ ext: { source: 'prebid-mobile' } }), undefined);
    assert.equal(appDisplayManager({ ext: { source: '', version: '1.0.0' } }), undefined);
    assert.equal(appDisplayManager({ ext: { source: 'prebid-mobile', version: '' } }), undefined);
    assert.deepEqual(appDisplayManager({ ext: { source: 'android-sdk', version: '2.0.0', prebid: { source: 'prebid-mobile', version: '1.0.0' } } }), { name: 'prebid-mobile', version: '1.0.0' });
  });
});

describe('pubmatic bids', () => {
  const answer = (bid: Record<string, unknown>): string => JSON.stringify({ id: 'r', seatbid: [{ seat: '958', bid: [bid] }], cur: 'USD' });
  const base = { id: 'b1', impid: 'i1', price: 0.5, adm: 'ad', crid: 'c1', w: 300, h: 250, dealid: 'd1' };
  it('keeps a positive deal priority and ignores others', () => {
    const ok = makeBids({ status: 200, headers: {}, body: answer({ ...base, mtype: 1, ext: { prebiddealpriority: 1 } }) });
    assert.deepEqual(ok.errors, []);
    assert.equal(ok.response?.bids[0]?.dealPriority, 1);
    const neg = makeBids({ status: 200, headers: {}, body: answer({ ...base, mtype: 1, ext: { prebiddealpriority: -1 } }) });
    assert.equal(neg.response?.bids[0]?.dealPriority, undefined);
  });
  it('types a bid by mtype only, in-banner video included', () => {
    const r = makeBids({ status: 200, headers: {}, body: answer({ ...base, mtype: 1, ext: { ibv: true } }) });
    assert.equal(r.response?.bids[0]?.type, 'banner');
    const types = [1, 2, 3, 4].map((mtype) => makeBids({ status: 200, headers: {}, body: answer({ ...base, mtype, adm: '{}', ext: {} }) }).response?.bids[0]?.type);
    assert.deepEqual(types, ['banner', 'video', 'audio', 'native']);
  });
  it('drops a bid with no or an unknown mtype', () => {
    const r = makeBids({ status: 200, headers: {}, body: answer({ ...base, mtype: 0, ext: {} }) });
    assert.deepEqual(r.response, { currency: 'USD', bids: [] });
    assert.deepEqual(r.errors, [{ code: 3, message: 'failed to parse bid mtype (0) for impression id i1' }]);
  });
  it('answers the statuses as Prebid Server does when handed them', () => {
    assert.deepEqual(makeBids({ status: 204, headers: {}, body: '' }), { errors: [] });
    assert.deepEqual(makeBids({ status: 400, headers: {}, body: '' }).errors, [{ code: 2, message: 'Unexpected status code: 400. Run with request.debug = 1 for more info' }]);
    assert.deepEqual(makeBids({ status: 500, headers: {}, body: '' }).errors, [{ code: 3, message: 'Unexpected status code: 500. Run with request.debug = 1 for more info' }]);
  });
  it('reads a null answer as no bids, and a mistyped one as an error', () => {
    assert.deepEqual(makeBids({ status: 200, headers: {}, body: 'null' }), { response: { currency: 'USD', bids: [] }, errors: [] });
    assert.deepEqual(makeBids({ status: 200, headers: {}, body: JSON.stringify({ seatbid: [{ bid: [{ ...base, price: '1' }] }] }) }).errors, [
      { code: 3, message: 'Bad server response: seatbid[0].bid[0].price is not a number' },
    ]);
  });
  it('ignores a bid ext with a mistyped field, with an error', () => {
    const r = makeBids({ status: 200, headers: {}, body: answer({ ...base, mtype: 1, ext: { marketplace: 'groupx', prebiddealpriority: 'high' } }) });
    assert.equal(r.response?.bids[0]?.seat, undefined);
    assert.deepEqual(r.errors, [{ code: 3, message: 'bid b1 for imp i1: ext.prebiddealpriority is not an integer' }]);
  });
});

describe('pubmatic native markup', () => {
  it('unwraps {"native": ...} keeping the inner text as written', () => {
    assert.deepEqual(nativeAdm('{"native":{"link":{"url":"https:\\/\\/a.example"}}}'), { adm: '{"link":{"url":"https:\\/\\/a.example"}}' });
    assert.deepEqual(nativeAdm(' { "ver" : "1.2" , "native" : [ 1 , {"x":"]"} ] } '), { adm: '[ 1 , {"x":"]"} ]' });
  });
  it('keeps markup without a native member, and reports markup that is not an object', () => {
    assert.deepEqual(nativeAdm('{"assets":[]}'), { adm: '{"assets":[]}' });
    assert.deepEqual(nativeAdm('null'), { adm: 'null' });
    assert.deepEqual(nativeAdm('{'), { error: 'unable to unmarshal native adm' });
    assert.deepEqual(nativeAdm('[1]'), { error: 'unable to unmarshal native adm' });
  });
  it('reads raw members', () => {
    assert.equal(rawMember('{"a":"x\\"y","native":"in\\/side"}', 'native'), 'in\\/side');
    assert.equal(rawMember('{"a":{"native":1},"native":true}', 'native'), 'true');
    assert.equal(rawMember('{"na\\u0074ive":5}', 'native'), '5');
    assert.equal(rawMember('{"a":1}', 'native'), undefined);
    assert.equal(rawMember('[1]', 'native'), undefined);
  });
});
