import type { FastifyReply } from 'fastify';
import type { OptOut } from '../../usersync/optout.js';
import { TEXT_PLAIN } from '../answer.js';
import { acceptAnyBodyAsText, firstParam } from '../raw-body.js';
import type { HttpServer } from '../server.js';

/** A form's body is a few fields; anything larger is not one. */
const OPTOUT_MAX_BODY_BYTES = 16 * 1024;

/** The origin of `Origin`, else of `Referer`; `undefined` when neither is a URL. */
const sourceOriginOf = (origin: string | undefined, referer: string | undefined): string | undefined => {
  for (const value of [origin, referer]) {
    if (value === undefined) continue;
    try {
      return new URL(value).origin;
    } catch {
      // Not a URL: try the next one.
    }
  }
  return undefined;
};

/**
 * `GET` and `POST /optout` (Prebid Server's): parameters from the query or a form body
 * (`application/x-www-form-urlencoded`, read whatever the content type says); answers with the
 * cookie and a redirect to the host's page, or a short text.
 */
export const optOutRoutes = (server: HttpServer, opts: { optOut: OptOut }): void => {
  void server.fastify.register((scope, _o, done) => {
    acceptAnyBodyAsText(scope);
    const handler = async (req: { query: unknown; body: unknown; headers: Record<string, string | string[] | undefined> }, reply: FastifyReply) => {
      const query = req.query as Record<string, unknown>;
      const form = typeof req.body === 'string' ? new URLSearchParams(req.body) : undefined;
      const header = (name: string): string | undefined => firstParam(req.headers[name]);
      const outcome = await opts.optOut.handle({
        param: (name) => form?.get(name) ?? firstParam(query[name]),
        cookieHeader: header('cookie'),
        sourceOrigin: sourceOriginOf(header('origin'), header('referer')),
      });
      void reply.code(outcome.status);
      if (outcome.setCookie !== undefined) void reply.header('set-cookie', outcome.setCookie);
      if (outcome.location !== undefined) void reply.header('location', outcome.location);
      return reply.type(TEXT_PLAIN).send(outcome.message ?? '');
    };
    scope.get('/optout', handler);
    scope.post('/optout', { bodyLimit: OPTOUT_MAX_BODY_BYTES }, handler);
    done();
  });
};
