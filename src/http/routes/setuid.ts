import { TRANSPARENT_PIXEL_PNG } from '../../events/pixel.js';
import { getUidsBody } from '../../usersync/getuids.js';
import { readUidsCookie } from '../../usersync/request-cookie.js';
import type { OptOutCookie } from '../../usersync/request-cookie.js';
import type { SetuidService } from '../../usersync/setuid.js';
import { JSON_UTF8, TEXT_PLAIN } from '../answer.js';
import type { AnswerRequest } from '../answer.js';
import { firstParam } from '../raw-body.js';
import { sendAnswer } from '../server.js';
import type { HttpServer } from '../server.js';

export interface SetuidRouteOptions {
  readonly setuid: SetuidService;
  /** For `/getuids`, which reads the cookie as `/setuid` does. */
  readonly optOutCookie: OptOutCookie;
}

/**
 * `GET /setuid` and `GET /getuids`, Fastify routes: they read the `Cookie` header and `/setuid`
 * writes `Set-Cookie`, which the lanes' answers do not carry; neither is a hot path (a sync runs
 * once per bidder per user every few days).
 */
export const setuidRoutes = (server: HttpServer, opts: SetuidRouteOptions): void => {
  server.fastify.get('/setuid', async (req, reply) => {
    const q = req.query as Record<string, unknown>;
    const outcome = await opts.setuid.handle((name) => firstParam(q[name]), req.headers.cookie);
    void reply.code(outcome.status);
    if (outcome.setCookie !== undefined) void reply.header('set-cookie', outcome.setCookie);
    if (outcome.message !== undefined) return reply.type(TEXT_PLAIN).send(outcome.message);
    if (outcome.status === 200 && outcome.format === 'i') return reply.type('image/png').send(TRANSPARENT_PIXEL_PNG);
    if (outcome.status === 200) return reply.type('text/html').send('');
    return reply.send();
  });

  // Up to 1,000 families' ids: gzipped for a client that accepts it.
  const getuids = server.compressed(({ headers }: AnswerRequest) => ({
    status: 200,
    contentType: JSON_UTF8,
    body: getUidsBody(readUidsCookie(headers.cookie, opts.optOutCookie)),
  }));
  server.fastify.get('/getuids', async (req, reply) => sendAnswer(reply, await getuids({ query: {}, headers: req.headers, ip: req.ip })));
};
