import assert from 'node:assert/strict';
import { Agent, request } from 'undici';
import { describe, it } from 'node:test';
import { readRecordLines, tempRecordsPath } from '../support/analytics.js';
import { buildTestApp } from '../support/app.js';
import { startCollector } from '../support/collector.js';
import { waitFor } from '../support/ports.js';
import { startServerProcess } from '../support/server-process.js';


describe('/event to analytics', () => {
  it('records each event with its fields in the file and http modules; x=0 records nothing', async () => {
    const path = tempRecordsPath('openbid-events-');
    const collector = await startCollector();
    const app = await buildTestApp(
      { analytics: { file: { path, flush_interval_ms: 60_000 }, http: { endpoint: collector.url, flush_interval_ms: 20 } } },
      { clock: { now: () => 1_800_000_000_000 } },
    );
    try {
      const ua = { 'user-agent': 'Mozilla/5.0 (test)' };
      const win = await app.server.inject({ method: 'GET', url: '/event?t=win&b=bid-1&a=acc-1&bidder=appnexus&ts=1700000000000&int=pbjs&aid=auc-1', headers: ua });
      const imp = await app.server.inject({ method: 'GET', url: '/event?t=imp&b=bid-2&a=acc-1&bidder=rubicon&f=i' });
      const off = await app.server.inject({ method: 'GET', url: '/event?t=imp&b=bid-3&a=acc-1&bidder=rubicon&x=0' });
      assert.deepEqual([win.statusCode, imp.statusCode, off.statusCode], [200, 200, 200]);
      const expected = [
        { kind: 'event', type: 'win', account: 'acc-1', bidId: 'bid-1', bidder: 'appnexus', auctionId: 'auc-1', timestamp: 1700000000000, integration: 'pbjs', userAgent: 'Mozilla/5.0 (test)', receivedAt: 1_800_000_000_000 },
        { kind: 'event', type: 'imp', account: 'acc-1', bidId: 'bid-2', bidder: 'rubicon', userAgent: 'lightMyRequest', receivedAt: 1_800_000_000_000 },
      ];
      await waitFor('http delivery', async () => collector.received.flat().length === 2, 5000);
      assert.deepEqual(collector.received.flat(), expected);
      // The module counts a batch once the collector's answer is back, a moment after it arrived.
      const written = 'openbid_analytics_records_total{module="http",result="written"} 2';
      await waitFor('http delivery counted', async () => (await app.metrics.render()).body.includes(written), 5000);
      const metrics = (await app.metrics.render()).body;
      for (const line of [
        'openbid_events_total{type="win",result="recorded"} 1',
        'openbid_events_total{type="imp",result="recorded"} 1',
        'openbid_events_total{type="imp",result="not_recorded"} 1',
        written,
      ]) {
        assert.ok(metrics.includes(line), `missing ${line}`);
      }
      await app.close();
      assert.deepEqual(readRecordLines(path), expected, 'the file module wrote everything on close');
    } finally {
      await app.close();
      await collector.close();
    }
  });

  it('counts refused events in metrics', async () => {
    const app = await buildTestApp({ accounts: { by_id: { off: { events: { enabled: false } } } } });
    try {
      await app.server.inject({ method: 'GET', url: '/event?t=win&b=b&a=off&bidder=x' });
      const metrics = (await app.metrics.render()).body;
      assert.ok(metrics.includes('openbid_events_total{type="win",result="account_disabled"} 1'));
    } finally {
      await app.close();
    }
  });
});

describe('the file module under SIGTERM', () => {
  it('loses no event the server acknowledged while requests were in flight', async () => {
    const path = tempRecordsPath('openbid-events-');
    // A long flush interval: only the shutdown flush can save the records.
    const server = await startServerProcess({ analytics: { file: { path, flush_interval_ms: 600_000 } } });
    const agent = new Agent({ connections: 32, pipelining: 1 });
    const acknowledged = new Set<string>();
    let sent = 0;
    let settled = 0;
    let stop = false;
    const worker = async (w: number): Promise<void> => {
      for (let i = 0; i < 400 && !stop; i++) {
        const bid = `w${w}-${i}`;
        sent++;
        try {
          const res = await request(`${server.baseUrl}/event?t=imp&b=${bid}&a=acc&bidder=x`, { dispatcher: agent });
          await res.body.dump();
          if (res.statusCode === 200) acknowledged.add(bid);
        } catch {
          stop = true; // the server has stopped accepting
        } finally {
          settled++;
        }
      }
    };
    const load = Promise.all(Array.from({ length: 32 }, (_, w) => worker(w)));
    await waitFor('some events acknowledged', async () => acknowledged.size >= 500, 10_000);
    // Requests sent and not yet answered when the signal goes.
    const inFlightAtSignal = sent - settled;
    server.proc.kill('SIGTERM');
    await load;
    const code = await server.exited;
    await agent.close();
    assert.equal(code, 0, server.output());
    const written = new Set(readRecordLines(path).map((r) => (r as { bidId: string }).bidId));
    const lost = [...acknowledged].filter((b) => !written.has(b));
    assert.deepEqual(lost, [], `${lost.length} acknowledged events missing from the file`);
    assert.ok(written.size >= acknowledged.size && written.size <= sent, `${written.size} lines, ${acknowledged.size} acknowledged, ${sent} sent`);
    // Those still unread by the server may be refused (the client sees an error, not an ack), so
    // the check is that the signal came mid-load, not how many of them were answered.
    assert.ok(inFlightAtSignal > 0, 'SIGTERM came with no request in flight');
  });
});
