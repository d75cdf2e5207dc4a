import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { parseEventQuery } from './event-request.js';

describe('parseEventQuery', () => {
  it('reads every parameter', () => {
    assert.deepEqual(parseEventQuery({ t: 'imp', b: 'b1', a: 'acc', bidder: 'rubicon', f: 'i', ts: '1700000000123', x: '1', int: 'pbjs', aid: 'auc-1' }), {
      type: 'imp',
      account: 'acc',
      bidId: 'b1',
      bidder: 'rubicon',
      format: 'image',
      analytics: true,
      timestamp: 1700000000123,
      integration: 'pbjs',
      auctionId: 'auc-1',
    });
  });

  it('defaults to a blank answer with analytics on, and reads x=0', () => {
    const e = parseEventQuery({ t: 'win', b: 'b', a: 'a', bidder: 'x' });
    assert.equal(e.format, 'blank');
    assert.equal(e.analytics, true);
    assert.equal(e.timestamp, undefined);
    assert.equal(parseEventQuery({ t: 'win', b: 'b', a: 'a', bidder: 'x', x: '0' }).analytics, false);
  });

  it('takes the first of repeated values', () => assert.equal(parseEventQuery({ t: ['imp', 'win'], b: 'b', a: 'a', bidder: 'x' }).type, 'imp'));
});
