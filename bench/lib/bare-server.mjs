// The baseline every figure is divided by: a bare node:http server doing the least an HTTP
// endpoint can do. GET answers a fixed body of BODY_BYTES; POST reads the whole request body and
// answers a fixed small JSON. Run as its own process, like openbid, so both get one core.
//
// BARE_TURN_BATCH=1 writes each answer at the end of the event-loop turn, together with the
// turn's other answers, as openbid's lanes do: the like-for-like baseline (README,
// "Performance"), since on loopback that alone changes what a server pays per answer.
import { createServer } from 'node:http';
import { setImmediate } from 'node:timers';

const port = Number(process.env.PORT);
const body = Buffer.alloc(Number(process.env.BODY_BYTES ?? 1024), 'x');
const postAnswer = Buffer.from(JSON.stringify({ responses: [{ uuid: '00000000-0000-4000-8000-000000000001' }] }));
const turnBatched = process.env.BARE_TURN_BATCH === '1';

let pending = [];
const writePending = () => {
  const batch = pending;
  pending = [];
  for (let i = 0; i < batch.length; i += 2) answer(batch[i], batch[i + 1]);
};
const answer = (res, post) => {
  const out = post ? postAnswer : body;
  res.writeHead(200, { 'content-type': post ? 'application/json' : 'application/xml', 'content-length': out.length });
  res.end(out);
};
const write = (res, post) => {
  if (!turnBatched) return answer(res, post);
  if (pending.length === 0) setImmediate(writePending);
  pending.push(res, post);
  // The same bound as the lane's (MAX_TURN_BATCH in src/http/turn-batch.ts).
  if (pending.length === 32 * 2) writePending();
};

const server = createServer((req, res) => {
  if (req.method === 'POST') {
    const chunks = [];
    req.on('data', (c) => chunks.push(c));
    req.on('end', () => write(res, true));
    return;
  }
  write(res, false);
});
server.keepAliveTimeout = 72_000;
server.listen(port, '127.0.0.1', () => process.stdout.write('ready\n'));
process.on('SIGTERM', () => server.close(() => process.exit(0)));
