// The least any Node.js exchange does per auction, as a reference for the auction benches: reads
// the request body, POSTs it to every bidder in BIDDERS (comma-separated URLs) at once with undici
// over keep-alive connections, parses each JSON answer, and answers a small JSON of the prices.
// No validation, no targeting, no cache: what is left is the HTTP work an auction cannot avoid.
import { createServer } from 'node:http';
import { Agent, request } from 'undici';

const port = Number(process.env.PORT);
const bidders = String(process.env.BIDDERS).split(',');
const dispatcher = new Agent({ keepAliveTimeout: 10_000, connections: 128 });

const callBidder = async (url, body) => {
  const res = await request(url, { method: 'POST', body, headers: { 'content-type': 'application/json' }, dispatcher });
  return JSON.parse(await res.body.text());
};

createServer((req, res) => {
  const chunks = [];
  req.on('data', (c) => chunks.push(c));
  req.on('end', async () => {
    try {
      const body = Buffer.concat(chunks).toString('utf8');
      const answers = await Promise.all(bidders.map((url) => callBidder(url, body)));
      const out = JSON.stringify({ prices: answers.map((a) => a.seatbid?.[0]?.bid?.[0]?.price ?? null) });
      res.writeHead(200, { 'content-type': 'application/json', 'content-length': Buffer.byteLength(out) });
      res.end(out);
    } catch {
      // A bidder failed: the load tool counts the 502 as an error, the server keeps running.
      res.writeHead(502).end();
    }
  });
}).listen(port, '127.0.0.1');
