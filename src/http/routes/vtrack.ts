import type { VtrackService } from '../../vtrack/vtrack-service.js';
import { acceptAnyBodyAsText, firstParam } from '../raw-body.js';
import type { HttpServer } from '../server.js';
import { cachedValueAnswer, putResponseBody } from './cache.js';

/**
 * `POST /vtrack?a=` and `GET /vtrack`. Prebid.js with `cache.url` set to `/vtrack?a=<account>`
 * reads a video back from `<cache.url>?uuid=<id>`, that is `/vtrack?a=<account>?uuid=<id>`: the
 * uuid then arrives glued to `a`, and is found there.
 */
export const vtrackRoutes = (server: HttpServer, opts: { vtrack: VtrackService; maxBodyBytes: number }): void => {
  void server.fastify.register((scope, _o, done) => {
    acceptAnyBodyAsText(scope);
    scope.post('/vtrack', { bodyLimit: opts.maxBodyBytes }, async (req, reply) => {
      const uuids = await opts.vtrack.put(firstParam((req.query as Record<string, unknown>).a), typeof req.body === 'string' ? req.body : '');
      return reply.type('application/json').send(putResponseBody(uuids));
    });
    done();
  });

  server.answerGet('/vtrack', async ({ query }) => {
    const glued = firstParam(query.a)?.split('?uuid=')[1];
    return cachedValueAnswer(await opts.vtrack.get(firstParam(query.uuid) ?? glued));
  });
};
