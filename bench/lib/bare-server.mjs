// The baseline every figure is divided by: a bare node:http server doing the least an HTTP
// endpoint can do. GET answers a fixed body of BODY_BYTES; POST reads the whole request body and
// answers a fixed small JSON. Run as its own process, like openbid, so both get one core.
import { createServer } from 'node:http';

const port = Number(process.env.PORT);
const body = Buffer.alloc(Number(process.env.BODY_BYTES ?? 1024), 'x');
const postAnswer = Buffer.from(JSON.stringify({ responses: [{ uuid: '00000000-0000-4000-8000-000000000001' }] }));

const server = createServer((req, res) => {
  if (req.method === 'POST') {
    const chunks = [];
    req.on('data', (c) => chunks.push(c));
    req.on('end', () => {
      res.writeHead(200, { 'content-type': 'application/json', 'content-length': postAnswer.length });
      res.end(postAnswer);
    });
    return;
  }
  res.writeHead(200, { 'content-type': 'application/xml', 'content-length': body.length });
  res.end(body);
});
server.keepAliveTimeout = 72_000;
server.listen(port, '127.0.0.1', () => process.stdout.write('ready\n'));
process.on('SIGTERM', () => server.close(() => process.exit(0)));
