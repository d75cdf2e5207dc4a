import type { VtrackService } from '../../vtrack/vtrack-service.js';
import { mapMaybe } from '../../core/maybe-promise.js';
import { firstParam } from '../raw-body.js';
import type { HttpServer } from '../server.js';
import { cachedValueAnswer, putAnswer } from './cache.js';

/**
 * `POST /vtrack?a=` and `GET /vtrack`. Prebid.js with `cache.url` set to `/vtrack?a=<account>`
 * reads a video back from `<cache.url>?uuid=<id>`, that is `/vtrack?a=<account>?uuid=<id>`: the
 * uuid then arrives glued to `a`, and is found there.
 */
export const vtrackRoutes = (server: HttpServer, opts: { vtrack: VtrackService; maxBodyBytes: number }): void => {
  server.answerPost('/vtrack', opts.maxBodyBytes, ({ query, body }) => mapMaybe(opts.vtrack.put(firstParam(query.a), body), putAnswer));

  server.answerGet('/vtrack', async ({ query }) => {
    const glued = firstParam(query.a)?.split('?uuid=')[1];
    return cachedValueAnswer(await opts.vtrack.get(firstParam(query.uuid) ?? glued));
  });
};
