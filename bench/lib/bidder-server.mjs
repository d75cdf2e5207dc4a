// Mock bidders for the auction benches, in a process of their own: PORTS is a comma-separated
// list of ports, one plain OpenRTB 2.6 bidder on each, answering at once with one banner bid per
// imp of the request (price PRICE, creative of CREATIVE_BYTES). Run apart from openbid so bidder
// work never counts in openbid's CPU time. Real adapters' calls are answered as real bidders
// answer them: their imps come in the adapter's own format (without the generic adapter's
// `ext.bidder`), often with a gzip body; their bids carry an `ext` (PubMatic's adapter reports a
// bid without one), AppNexus's (imps with `ext.appnexus`) with the bid's type in
// `ext.appnexus.bid_ad_type` (0: banner); the answer is gzipped when the call accepts it.
import { createServer } from 'node:http';
import { gunzipSync, gzipSync } from 'node:zlib';

const ports = String(process.env.PORTS).split(',').map(Number);
const adm = `<div>${'x'.repeat(Number(process.env.CREATIVE_BYTES ?? 512))}</div>`;

for (const [n, port] of ports.entries()) {
  createServer((req, res) => {
    const chunks = [];
    req.on('data', (c) => chunks.push(c));
    req.on('end', () => {
      const raw = Buffer.concat(chunks);
      const request = JSON.parse((req.headers['content-encoding'] === 'gzip' ? gunzipSync(raw) : raw).toString('utf8'));
      const real = request.imp[0]?.ext?.bidder === undefined;
      const ext = !real ? undefined : request.imp[0]?.ext?.appnexus !== undefined ? { appnexus: { bid_ad_type: 0 } } : {};
      const bids = request.imp.map((imp) => ({
        id: `${port}-${imp.id}`,
        impid: imp.id,
        price: 0.5 + n * 0.37,
        adm,
        crid: `cr-${port}`,
        w: 300,
        h: 250,
        mtype: 1,
        ...(ext !== undefined ? { ext } : {}),
      }));
      const json = Buffer.from(JSON.stringify({ id: request.id, cur: 'USD', seatbid: [{ bid: bids }] }));
      const gzip = real && /\bgzip\b/.test(req.headers['accept-encoding'] ?? '');
      const body = gzip ? gzipSync(json) : json;
      res.writeHead(200, { 'content-type': 'application/json', 'content-length': body.length, ...(gzip ? { 'content-encoding': 'gzip' } : {}) });
      res.end(body);
    });
  }).listen(port, '127.0.0.1');
}
console.log(`bidders on ${ports.join(', ')}`);
