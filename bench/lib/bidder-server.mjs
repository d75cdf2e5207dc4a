// Mock bidders for the auction benches, in a process of their own: PORTS is a comma-separated
// list of ports, one plain OpenRTB 2.6 bidder on each, answering at once with one banner bid per
// imp of the request (price PRICE, creative of CREATIVE_BYTES). Run apart from openbid so bidder
// work never counts in openbid's CPU time.
import { createServer } from 'node:http';

const ports = String(process.env.PORTS).split(',').map(Number);
const adm = `<div>${'x'.repeat(Number(process.env.CREATIVE_BYTES ?? 512))}</div>`;

for (const [n, port] of ports.entries()) {
  createServer((req, res) => {
    const chunks = [];
    req.on('data', (c) => chunks.push(c));
    req.on('end', () => {
      const request = JSON.parse(Buffer.concat(chunks).toString('utf8'));
      const bids = request.imp.map((imp) => ({ id: `${port}-${imp.id}`, impid: imp.id, price: 0.5 + n * 0.37, adm, crid: `cr-${port}`, w: 300, h: 250, mtype: 1 }));
      const body = Buffer.from(JSON.stringify({ id: request.id, cur: 'USD', seatbid: [{ bid: bids }] }));
      res.writeHead(200, { 'content-type': 'application/json', 'content-length': body.length });
      res.end(body);
    });
  }).listen(port, '127.0.0.1');
}
console.log(`bidders on ${ports.join(', ')}`);
