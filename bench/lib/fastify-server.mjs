// A reference point between the bare baseline and openbid: the least a Fastify 5 route can do,
// with Fastify's defaults (no hooks, no logger). GET answers a fixed body of BODY_BYTES; POST
// reads the body as text, parses it as JSON and answers a fixed small JSON. Any Fastify
// application is at most this fast on the machine; openbid's figures are read against it.
import Fastify from 'fastify';

const port = Number(process.env.PORT);
const body = Buffer.alloc(Number(process.env.BODY_BYTES ?? 1024), 'x');
const postAnswer = JSON.stringify({ responses: [{ uuid: '00000000-0000-4000-8000-000000000001' }] });

const app = Fastify({ logger: false });
app.removeAllContentTypeParsers();
app.addContentTypeParser('*', { parseAs: 'string' }, (_req, text, done) => done(null, text));
app.get('/*', (_req, reply) => {
  reply.type('application/xml').send(body);
});
app.post('/*', (req, reply) => {
  JSON.parse(req.body);
  reply.type('application/json').send(postAnswer);
});
await app.listen({ port, host: '127.0.0.1' });
process.stdout.write('ready\n');
process.on('SIGTERM', () => app.close().then(() => process.exit(0)));
