import assert from 'node:assert/strict';
import { createServer } from 'node:http';
import type { Server } from 'node:http';
import { after, before, describe, it } from 'node:test';
import { MAX_RATES_DOCUMENT_BYTES } from '../currency-rates.js';
import { createHttpRatesSource } from './http-rates-source.js';
import { closeServer, listenLocal } from '../../../test/support/ports.js';

/** A rates server on 127.0.0.1: /rates.json, /moved (a redirect to it), /big, /broken (500), /slow (never answers). */
const RATES = '{"conversions":{"USD":{"EUR":0.9}}}';
let server: Server;
let base = '';
let bigBytesSent = 0;
before(async () => {
  server = createServer((req, res) => {
    if (req.url === '/rates.json') res.writeHead(200, { 'content-type': 'application/json' }).end(RATES);
    else if (req.url === '/moved') res.writeHead(302, { location: '/rates.json' }).end();
    else if (req.url === '/broken') res.writeHead(500).end('oops');
    else if (req.url === '/big') {
      // Endless: the source must stop reading past its limit.
      res.writeHead(200, { 'content-type': 'application/json' });
      const chunk = Buffer.alloc(64 * 1024, 0x20);
      const more = (): void => {
        while (bigBytesSent < 64 * MAX_RATES_DOCUMENT_BYTES && !res.destroyed) {
          bigBytesSent += chunk.length;
          if (!res.write(chunk)) return void res.once('drain', more);
        }
        res.end();
      };
      more();
    } else if (req.url === '/slow') return;
    else res.writeHead(404).end();
  });
  base = await listenLocal(server);
});
after(() => closeServer(server));

const never = new AbortController().signal;

describe('rates from a URL', () => {
  it('answers the document’s text, following a redirect', async () => {
    assert.equal(await createHttpRatesSource(`${base}/rates.json`).read(never), RATES);
    assert.equal(await createHttpRatesSource(`${base}/moved`).read(never), RATES);
  });

  it('fails on any status but 200', async () => {
    await assert.rejects(createHttpRatesSource(`${base}/broken`).read(never), /answered 500/);
    await assert.rejects(createHttpRatesSource(`${base}/missing`).read(never), /answered 404/);
  });

  it('stops reading a body over the size limit', async () => {
    await assert.rejects(createHttpRatesSource(`${base}/big`).read(never), /more than \d+ bytes/);
    assert.ok(bigBytesSent < 16 * MAX_RATES_DOCUMENT_BYTES, `the server sent ${bigBytesSent} bytes`);
  });

  it('gives up when its signal aborts', async () => {
    const started = Date.now();
    await assert.rejects(createHttpRatesSource(`${base}/slow`).read(AbortSignal.timeout(100)));
    assert.ok(Date.now() - started < 2000);
  });

  it('leaves credentials out of its name', () => {
    assert.equal(createHttpRatesSource('https://user:secret@rates.example/latest.json').name, 'https://user:redacted@rates.example/latest.json');
    assert.equal(createHttpRatesSource('https://token@rates.example/latest.json').name, 'https://redacted@rates.example/latest.json');
  });
});
