import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { validateBidRequest } from './validate-request.js';

const imp = { id: 'i1', banner: { format: [{ w: 300, h: 250 }] }, ext: { prebid: { bidder: { a: {} } } } };
const ok = { id: 'r', site: { page: 'p' }, imp: [imp] };

describe('validateBidRequest', () => {
  it('accepts a minimal site request, and app or dooh in place of site', () => {
    assert.deepEqual(validateBidRequest(ok), []);
    assert.deepEqual(validateBidRequest({ id: 'r', app: { bundle: 'b' }, imp: [imp] }), []);
    assert.deepEqual(validateBidRequest({ id: 'r', dooh: {}, imp: [imp] }), []);
  });

  it('names every problem of the request and of each imp', () => {
    assert.deepEqual(
      validateBidRequest({
        site: {},
        app: {},
        tmax: -5,
        cur: ['dollars'],
        ext: { prebid: { aliases: { x: 'x', y: 3 } } },
        imp: [
          { id: 'a', banner: { format: [{ w: 0, h: 250 }] }, ext: { prebid: { bidder: {} } } },
          { id: 'a', video: { mimes: [] }, native: {}, bidfloor: -1, ext: { a: {} } },
          'nope',
        ],
      }),
      [
        'request missing required field: "id"',
        'request.site or request.app must be defined, but not both.',
        'request.tmax must be a nonnegative integer. Got -5',
        'request.cur must be an array of ISO-4217 currency codes',
        'request.ext.prebid.aliases.x defines a no-op alias. Choose a different alias, or remove this entry.',
        'request.ext.prebid.aliases.y must name a bidder',
        'request.imp[0].banner.format[0] must define non-zero integers "w" and "h"',
        'request.imp[0].ext.prebid.bidder must contain at least one bidder',
        'request.imp[0].id and request.imp[1].id are both "a". Imp IDs must be unique.',
        'request.imp[1].video.mimes must contain at least one supported MIME type',
        'request.imp[1].native missing required property "request"',
        'request.imp[1].bidfloor must be a nonnegative number',
        'request.imp[2] must be a JSON object',
      ],
    );
  });

  it('refuses values that are not objects where objects are required', () => {
    assert.deepEqual(validateBidRequest(null), ['request must be a JSON object']);
    assert.deepEqual(validateBidRequest({ ...ok, device: 'x', user: [], imp: 'x' }), [
      'request.device must be a JSON object',
      'request.user must be a JSON object',
      'request.imp must contain at least one element.',
    ]);
  });
});
