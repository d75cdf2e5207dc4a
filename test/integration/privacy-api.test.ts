import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { allConsent, gppString, tcfString, VENDOR_LIST_FILE, writtenTcf } from '../support/consent-strings.js';
import { buildTestApp } from '../support/app.js';
import type { TestApp } from '../support/app.js';
import { startMockBidder } from '../support/mock-bidder.js';
import type { MockBidder } from '../support/mock-bidder.js';

/*
 * Privacy end to end: a real server on 127.0.0.1 with two generic bidders, alpha (GVL vendor 10,
 * the test list's consent vendor) and beta (GVL vendor 20, its legitimate-interest vendor), each
 * a real mock server; every test reads what each bidder actually received.
 */

const STORED_AMP = new URL('../fixtures/amp-stored/requests', import.meta.url).pathname;
let alpha: MockBidder;
let beta: MockBidder;
let app: TestApp;
let base = '';

before(async () => {
  alpha = await startMockBidder({ status: 204 });
  beta = await startMockBidder({ status: 204 });
  app = await buildTestApp({
    adapters: {
      alpha: { adapter: 'generic', endpoint: alpha.url, gvl_vendor_id: 10 },
      beta: { adapter: 'generic', endpoint: beta.url, gvl_vendor_id: 20 },
    },
    stored_requests: { filesystem: { directory: STORED_AMP } },
    privacy: { gdpr: { vendor_list: { file: VENDOR_LIST_FILE } } },
    accounts: { by_id: { 'pub-no-beta': { privacy: { allowactivities: { fetchBids: { rules: [{ condition: { componentType: ['bidder'], componentName: ['beta'] }, allow: false }] } } } } } },
  });
  base = await app.server.listen({ host: '127.0.0.1', port: 0 });
});
after(async () => {
  await app.close();
  await Promise.all([alpha.close(), beta.close()]);
});

import type { BidRequest } from '../../src/openrtb/types.js';

/** What a bidder received. */
type Received = BidRequest;
/** What the caller got back (only `ext.warnings` is read). */
type Answer = { ext?: { warnings?: unknown } };

/** The one request each bidder received for the call `run` makes (`undefined`: not called). */
const receivedBy = async (run: () => Promise<Response>): Promise<{ status: number; body: Answer; alpha?: Received; beta?: Received }> => {
  const [a, b] = [alpha.received.length, beta.received.length];
  const res = await run();
  const body = (await res.json()) as Answer;
  const one = (m: MockBidder, from: number): Received | undefined => {
    const got = m.received.slice(from);
    assert.ok(got.length <= 1, 'at most one call per bidder');
    return got[0] === undefined ? undefined : (JSON.parse(got[0].body) as Received);
  };
  return { status: res.status, body, alpha: one(alpha, a), beta: one(beta, b) };
};

const auction = (extra: Partial<BidRequest>, headers: Record<string, string> = {}, publisher = 'pub-1') =>
  receivedBy(() =>
    fetch(`${base}/openrtb2/auction`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', ...headers },
      body: JSON.stringify({
        id: 'auction-1',
        imp: [{ id: 'imp-1', banner: { format: [{ w: 300, h: 250 }] }, ext: { prebid: { bidder: { alpha: {}, beta: {} } } } }],
        site: { page: 'https://example.com/', publisher: { id: publisher } },
        device: { ua: 'UA', ip: '198.51.100.77', ifa: 'ifa-1', geo: { lat: 48.85837, lon: 2.29448, country: 'FRA' } },
        user: { id: 'user-1', buyeruid: 'buyer-1', eids: [{ source: 'id.example', uids: [{ id: 'eid-1' }] }] },
        tmax: 500,
        ...extra,
        ...(extra.user !== undefined ? { user: { id: 'user-1', buyeruid: 'buyer-1', eids: [{ source: 'id.example', uids: [{ id: 'eid-1' }] }], ...extra.user } } : {}),
      }),
    }),
  );

const amp = (query: string, headers: Record<string, string> = {}) => receivedBy(() => fetch(`${base}/openrtb2/amp?tag_id=banner-1&${query}`, { headers: { origin: 'https://cdn.ampproject.org', ...headers } }));

/** The bidder got the user's ids, eids, device id and precise location. */
const hasEverything = (r: Received | undefined): boolean =>
  r !== undefined && r.user?.id === 'user-1' && r.user?.buyeruid === 'buyer-1' && r.user?.eids?.length === 1 && r.device?.ifa === 'ifa-1' && r.device?.ip === '198.51.100.77' && r.device?.geo?.lat === 48.85837;
/** US opt-out scrubbing: no ids, eids or device id, IP masked to /24, location rounded. */
const isScrubbed = (r: Received | undefined): boolean =>
  r !== undefined && r.user?.id === undefined && r.user?.buyeruid === undefined && r.user?.eids === undefined && r.device?.ifa === undefined && r.device?.ip === '198.51.100.0' && r.device?.geo?.lat === 48.86 && r.device?.geo?.lon === 2.29;
const warningsOf = (body: Answer): string => JSON.stringify(body.ext?.warnings ?? {});

describe('POST /openrtb2/auction: what each bidder receives', () => {
  it('without privacy signals both bidders get everything', async () => {
    const r = await auction({});
    assert.equal(r.status, 200);
    assert.ok(hasEverything(r.alpha) && hasEverything(r.beta));
  });

  it('GDPR consent for vendor 10 only: alpha gets the consent and everything, beta is not called and a warning says so', async () => {
    const consent = tcfString({ purposes: [1, 2, 3, 4, 7], vendors: [10], specialFeatures: [1] });
    const r = await auction({ regs: { gdpr: 1 }, user: { consent } });
    assert.ok(hasEverything(r.alpha));
    assert.equal(r.alpha?.user?.consent, consent);
    assert.equal(r.beta, undefined);
    assert.match(warningsOf(r.body), /bidder \\"beta\\" blocked by privacy settings/);
  });

  it('GDPR legitimate interest on purpose 2: both called, neither gets ids (no purpose 4 consent) nor precise geo', async () => {
    const consent = tcfString({ purposes: [2], purposeLi: [2], vendors: [10], vendorLi: [20] });
    const r = await auction({ regs: { gdpr: 1 }, user: { consent } });
    for (const got of [r.alpha, r.beta]) {
      assert.ok(got !== undefined);
      assert.equal(got.user?.id, undefined);
      assert.equal(got.user?.eids, undefined);
      assert.equal(got.device?.ifa, undefined);
      assert.equal(got.device?.ip, '198.51.100.0');
    }
  });

  it('an undecodable consent string is a warning, the auction answers, and GDPR bidders get nothing', async () => {
    const r = await auction({ regs: { gdpr: 1 }, user: { consent: 'CPgarbage!!' } });
    assert.equal(r.status, 200);
    assert.match(warningsOf(r.body), /not a valid TCF v2 consent string/);
    assert.equal(r.alpha, undefined);
    assert.equal(r.beta, undefined);
  });

  it('an invalid consent string with GDPR off: the warning says what is wrong in our words, never a decoder exception', async () => {
    // Version 3: the IAB decoder failed on it with "Cannot read properties of undefined (…)".
    const v3 = writtenTcf({ version: 3, vendors: { maxId: 10, bitField: [10] }, vendorLi: { maxId: 0, bitField: [] }, restrictions: [] });
    const r = await auction({ regs: { gdpr: 0 }, user: { consent: v3 } });
    assert.equal(r.status, 200);
    assert.deepEqual(r.body.ext?.warnings, { general: [{ code: 999, message: 'user.consent is not a valid TCF v2 consent string and is treated as no consent: version 3 is not TCF v2' }] });
    assert.ok(hasEverything(r.alpha) && hasEverything(r.beta), 'GDPR off: both called with everything');
  });

  it("a valid core with an unknown segment after it (the IAB decoder's 'forEach' failure) is read as Prebid Server reads it", async () => {
    const consent = `${tcfString({ purposes: [1, 2, 3, 4, 7], vendors: [10], specialFeatures: [1] })}.zzzz`;
    const r = await auction({ regs: { gdpr: 1 }, user: { consent } });
    assert.doesNotMatch(warningsOf(r.body), /consent string|Cannot read|forEach/);
    assert.ok(hasEverything(r.alpha));
    assert.equal(r.beta, undefined);
  });

  it('GPP with the TCF EU section stands in for user.consent', async () => {
    const r = await auction({ regs: { gpp: gppString({ tcfEu: allConsent() }), gpp_sid: [2] } });
    assert.ok(hasEverything(r.alpha));
    assert.ok(r.beta !== undefined && r.beta.user?.id === undefined, 'vendor 20 declares no purpose 4: no ids');
  });

  it('us_privacy opt-out with nosale for alpha: alpha untouched, beta scrubbed', async () => {
    const r = await auction({ regs: { us_privacy: '1YYN' }, ext: { prebid: { nosale: ['alpha'] } } });
    assert.ok(hasEverything(r.alpha));
    assert.ok(isScrubbed(r.beta));
  });

  it('GPP US national sale opt-out scrubs both', async () => {
    const r = await auction({ regs: { gpp: gppString({ usNat: { saleOptOut: 1 } }), gpp_sid: [7] } });
    assert.ok(isScrubbed(r.alpha) && isScrubbed(r.beta));
  });

  it('Sec-GPC: 1 scrubs both', async () => {
    const r = await auction({}, { 'sec-gpc': '1' });
    assert.ok(isScrubbed(r.alpha) && isScrubbed(r.beta));
  });

  it('COPPA removes the ids and the location entirely', async () => {
    const r = await auction({ regs: { coppa: 1 } });
    for (const got of [r.alpha, r.beta]) {
      assert.ok(got !== undefined);
      assert.equal(got.user?.id, undefined);
      assert.equal(got.device?.ifa, undefined);
      assert.deepEqual(got.device?.geo, {});
      assert.equal(got.device?.ip, '198.51.100.0');
    }
  });

  it('LMT removes the device ids', async () => {
    const r = await auction({ device: { ua: 'UA', ip: '198.51.100.77', ifa: 'ifa-1', lmt: 1 } });
    assert.equal(r.alpha?.device?.ifa, undefined);
    assert.equal(r.alpha?.device?.ip, '198.51.100.0');
  });

  it("an account's activity rule keeps beta out of its auctions", async () => {
    const r = await auction({}, {}, 'pub-no-beta');
    assert.ok(hasEverything(r.alpha));
    assert.equal(r.beta, undefined);
  });
});

describe('GET /openrtb2/amp: each consent parameter enforced', () => {
  const consent = () => tcfString({ purposes: [1, 2, 3, 4, 7], vendors: [10], specialFeatures: [1] });

  it('gdpr_consent with gdpr_applies=true: alpha called with the consent, beta not', async () => {
    const c = consent();
    const r = await amp(`gdpr_consent=${c}&gdpr_applies=true`);
    assert.equal(r.status, 200);
    assert.equal(r.alpha?.user?.consent, c);
    assert.equal(r.alpha?.regs?.gdpr, 1);
    assert.equal(r.beta, undefined);
  });

  it('consent_string with consent_type=2', async () => {
    const r = await amp(`consent_string=${consent()}&consent_type=2&gdpr_applies=true`);
    assert.ok(r.alpha !== undefined);
    assert.equal(r.beta, undefined);
  });

  it('gdpr_applies=false: no GDPR enforcement', async () => {
    const r = await amp(`gdpr_consent=${consent()}&gdpr_applies=false`);
    assert.ok(r.alpha !== undefined && r.beta !== undefined);
  });

  it('gdpr_applies=true without a consent: neither is called', async () => {
    const r = await amp('gdpr_applies=true');
    assert.equal(r.status, 200);
    assert.equal(r.alpha, undefined);
    assert.equal(r.beta, undefined);
  });

  it('consent_type=3 us_privacy opt-out: both called, the caller IP masked', async () => {
    const r = await amp('consent_string=1YYN&consent_type=3');
    assert.equal(r.alpha?.regs?.us_privacy, '1YYN');
    for (const got of [r.alpha, r.beta]) assert.equal(got?.device?.ip, '127.0.0.0');
  });

  it('us_privacy without opt-out: the IP passes', async () => {
    const r = await amp('consent_string=1YNN&consent_type=3');
    assert.equal(r.alpha?.device?.ip, '127.0.0.1');
  });

  it('Sec-GPC: 1 on an AMP request', async () => {
    const r = await amp('', { 'sec-gpc': '1' });
    assert.equal(r.alpha?.device?.ip, '127.0.0.0');
    assert.equal(r.beta?.device?.ip, '127.0.0.0');
  });
});
