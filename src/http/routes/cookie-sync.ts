import type { CookieSync } from '../../usersync/cookie-sync.js';
import { UIDS_COOKIE_NAME } from '../../usersync/uids-cookie.js';
import { acceptAnyBodyAsText } from '../raw-body.js';
import type { HttpServer } from '../server.js';

/** Largest `/cookie_sync` body read: a list of a page's bidders and consent strings fits many times over. */
export const COOKIE_SYNC_MAX_BODY_BYTES = 64 * 1024;

/** The first `name` cookie of a `Cookie` header (RFC 6265: `a=1; b=2`), or `undefined`. */
export const readCookie = (header: string | undefined, name: string): string | undefined => {
  if (header === undefined) return undefined;
  for (const part of header.split(';')) {
    const eq = part.indexOf('=');
    if (eq < 0 || part.slice(0, eq).trim() !== name) continue;
    const value = part.slice(eq + 1).trim();
    return value.length >= 2 && value.startsWith('"') && value.endsWith('"') ? value.slice(1, -1) : value;
  }
  return undefined;
};

/**
 * `POST /cookie_sync`: the syncs the page should run, as Prebid Server answers. Prebid.js posts
 * it as `text/plain` with credentials, so any content type is read as JSON text; the CORS headers
 * (the page's origin echoed, credentials allowed) are the server's own (`cors.ts`).
 */
export const cookieSyncRoutes = (server: HttpServer, opts: { cookieSync: CookieSync }): void => {
  void server.fastify.register((scope, _o, done) => {
    acceptAnyBodyAsText(scope);
    scope.post('/cookie_sync', { bodyLimit: COOKIE_SYNC_MAX_BODY_BYTES }, async (req, reply) => {
      const answer = await opts.cookieSync.run(typeof req.body === 'string' ? req.body : '', readCookie(req.headers.cookie, UIDS_COOKIE_NAME));
      void reply.code(200).type('application/json; charset=utf-8');
      // Go's json.Encoder ends the document with a newline.
      return `${JSON.stringify(answer)}\n`;
    });
    done();
  });
};
