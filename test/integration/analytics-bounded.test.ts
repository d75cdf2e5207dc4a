import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { describe, it } from 'node:test';
import { request } from 'undici';
import { readRecordLines, tempRecordsPath } from '../support/analytics.js';
import { buildTestApp } from '../support/app.js';
import { startMockBidder } from '../support/mock-bidder.js';

/*
 * Strings a record takes from a request or a bidder are cut to 256 characters before any module
 * sees them: a huge id must not be written verbatim into every record (it once made a 343 MB
 * file out of 600 auctions). Real sockets, the file module's own output.
 */

const MAX = 256;
const cut = (c: string): string => `${c.repeat(MAX)}…`;

describe('analytics records keep no huge string verbatim', () => {
  it('an /event with a long bid id, bidder code and auction id is written cut to 256 characters', async () => {
    const path = tempRecordsPath('openbid-bounded-');
    const app = await buildTestApp({ analytics: { file: { path, flush_interval_ms: 60_000 } } });
    try {
      const base = await app.server.listen({ host: '127.0.0.1', port: 0 });
      // The head limit (16 KiB) bounds a GET: 4,000 characters each is what fits.
      const res = await request(`${base}/event?t=win&a=acc-1&b=${'b'.repeat(4000)}&bidder=${'c'.repeat(4000)}&aid=${'d'.repeat(4000)}`);
      await res.body.dump();
      assert.equal(res.statusCode, 200);
    } finally {
      await app.close();
    }
    const [line, ...rest] = readRecordLines(path);
    assert.equal(rest.length, 0);
    assert.deepEqual([line?.bidId, line?.bidder, line?.auctionId, line?.account], [cut('b'), cut('c'), cut('d'), 'acc-1']);
  });

  it('an auction whose bidder answers a 500 KB bid id and deal id, for a 300 KB request id, is written cut', async () => {
    const path = tempRecordsPath('openbid-bounded-');
    const huge = (c: string) => c.repeat(500_000);
    const bidder = await startMockBidder({ body: { id: 'r', seatbid: [{ bid: [{ id: huge('b'), impid: 'imp-1', price: 2, adm: '<div/>', crid: 'c1', w: 300, h: 250, dealid: huge('d') }] }] } });
    const app = await buildTestApp({
      analytics: { file: { path, flush_interval_ms: 60_000 } },
      adapters: { alpha: { adapter: 'generic', endpoint: bidder.url } },
      auction: { max_response_bytes: 4 * 1024 * 1024 },
    });
    try {
      const base = await app.server.listen({ host: '127.0.0.1', port: 0 });
      const res = await request(`${base}/openrtb2/auction`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({
          id: 'r'.repeat(300_000),
          site: { page: 'https://p.example/', publisher: { id: 'acc-1' } },
          imp: [{ id: 'imp-1', banner: { format: [{ w: 300, h: 250 }] }, ext: { prebid: { bidder: { alpha: {} } } } }],
        }),
      });
      const body = await res.body.text();
      assert.equal(res.statusCode, 200, body.slice(0, 300));
    } finally {
      await app.close();
      await bidder.close();
    }
    const text = readFileSync(path, 'utf8');
    assert.ok(text.length < 4096, `the record is ${text.length} characters`);
    const [line] = readRecordLines(path);
    const winners = line?.winners as { bidId: string; dealId: string }[];
    assert.deepEqual([line?.auctionId, winners[0]?.bidId, winners[0]?.dealId], [cut('r'), cut('b'), cut('d')]);
  });
});
