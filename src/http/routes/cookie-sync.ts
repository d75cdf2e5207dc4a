import type { CookieSync } from '../../usersync/cookie-sync.js';
import { JSON_UTF8 } from '../answer.js';
import type { BodyAnswerRequest } from '../answer.js';
import { acceptAnyBodyAsText } from '../raw-body.js';
import { sendAnswer } from '../server.js';
import type { HttpServer } from '../server.js';

/** Largest `/cookie_sync` body read: a list of a page's bidders and consent strings fits many times over. */
export const COOKIE_SYNC_MAX_BODY_BYTES = 64 * 1024;

/**
 * `POST /cookie_sync`: the syncs the page should run, as Prebid Server answers. Prebid.js posts
 * it as `text/plain` with credentials, so any content type is read as JSON text; the CORS headers
 * (the page's origin echoed, credentials allowed) are the server's own (`cors.ts`).
 */
export const cookieSyncRoutes = (server: HttpServer, opts: { cookieSync: CookieSync }): void => {
  // Its answer grows with the bidders and consent strings a request names: gzipped for a client that accepts it.
  const answer = server.compressed(async ({ body, headers }: BodyAnswerRequest) => ({
    status: 200,
    contentType: JSON_UTF8,
    // Go's json.Encoder ends the document with a newline.
    body: `${JSON.stringify(await opts.cookieSync.run(body, headers.cookie))}\n`,
  }));
  void server.fastify.register((scope, _o, done) => {
    acceptAnyBodyAsText(scope);
    scope.post('/cookie_sync', { bodyLimit: COOKIE_SYNC_MAX_BODY_BYTES }, async (req, reply) =>
      sendAnswer(reply, await answer({ query: {}, headers: req.headers, ip: req.ip, body: typeof req.body === 'string' ? req.body : '' })),
    );
    done();
  });
};
