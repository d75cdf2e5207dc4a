// The least any Node.js exchange does per auction, as a reference for the auction benches. For
// each request, the same one openbid gets: reads it (a POST body, or for GET /openrtb2/amp the
// stored request named by tag_id, loaded at start from STORED_DIR), sends each bidder named in the
// imps' ext.prebid.bidder the request with its own imps, at once, with undici over keep-alive
// connections, parses every JSON answer, picks the highest bid per imp and answers those winners.
// No validation, no privacy, no targeting keys, no cache: what is left is the HTTP and JSON work
// an auction cannot avoid. BIDDERS is a comma-separated list of name=url.
import { randomUUID } from 'node:crypto';
import { readdirSync, readFileSync } from 'node:fs';
import { createServer } from 'node:http';
import { join } from 'node:path';
import { Agent, request } from 'undici';

const port = Number(process.env.PORT);
const bidders = new Map(String(process.env.BIDDERS).split(',').map((entry) => entry.split('=', 2)));
const stored = new Map();
if (process.env.STORED_DIR) {
  for (const file of readdirSync(process.env.STORED_DIR).filter((f) => f.endsWith('.json'))) {
    stored.set(file.slice(0, -'.json'.length), readFileSync(join(process.env.STORED_DIR, file), 'utf8'));
  }
}
const dispatcher = new Agent({ keepAliveTimeout: 10_000, connections: 128 });

const callBidder = async (url, body) => {
  const res = await request(url, { method: 'POST', body, headers: { 'content-type': 'application/json' }, dispatcher });
  return JSON.parse(await res.body.text());
};

/** Each bidder's imps, with its own params as imp.ext.bidder, as adapters send them. */
const splitByBidder = (req) => {
  const byBidder = new Map();
  for (const imp of req.imp ?? []) {
    for (const [name, params] of Object.entries(imp.ext?.prebid?.bidder ?? {})) {
      if (!bidders.has(name)) continue;
      if (!byBidder.has(name)) byBidder.set(name, []);
      byBidder.get(name).push({ ...imp, ext: { bidder: params } });
    }
  }
  return byBidder;
};

const auction = async (req) => {
  const calls = [...splitByBidder(req)].map(async ([name, imp]) => ({ name, answer: await callBidder(bidders.get(name), JSON.stringify({ ...req, imp })) }));
  const winners = new Map();
  for (const { name, answer } of await Promise.all(calls)) {
    for (const seat of answer.seatbid ?? []) {
      for (const bid of seat.bid ?? []) {
        const best = winners.get(bid.impid);
        if (best === undefined || bid.price > best.price) winners.set(bid.impid, { impid: bid.impid, bidder: name, price: bid.price, id: bid.id });
      }
    }
  }
  return { id: req.id, winners: [...winners.values()] };
};

/** The request to auction: the POST body, or the AMP page's stored request with a fresh id. */
const readRequest = (req, body) => {
  if (req.method !== 'GET') return JSON.parse(body);
  const tagId = new URL(req.url, 'http://x').searchParams.get('tag_id') ?? '';
  const template = stored.get(tagId);
  if (template === undefined) throw new Error(`no stored request ${tagId}`);
  return JSON.parse(template.replace('{{UUID}}', randomUUID()));
};

createServer((req, res) => {
  const chunks = [];
  req.on('data', (c) => chunks.push(c));
  req.on('end', async () => {
    try {
      const out = JSON.stringify(await auction(readRequest(req, Buffer.concat(chunks).toString('utf8'))));
      res.writeHead(200, { 'content-type': 'application/json', 'content-length': Buffer.byteLength(out) });
      res.end(out);
    } catch {
      // A bidder failed or the request was not JSON: the load tool counts the 502 as an error.
      res.writeHead(502).end();
    }
  });
}).listen(port, '127.0.0.1');
