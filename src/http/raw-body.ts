import type { FastifyInstance } from 'fastify';

/**
 * Makes the routes of this plugin scope receive the request body as a string whatever its
 * Content-Type: Prebid.js posts cache writes as `text/plain` (to avoid a CORS preflight), and
 * the cache keeps JSON values exactly as posted, so the route parses the text itself.
 */
export const acceptAnyBodyAsText = (scope: FastifyInstance): void => {
  scope.removeAllContentTypeParsers();
  // No bodyLimit here: each route sets its own, which both the parser and error messages use.
  scope.addContentTypeParser('*', { parseAs: 'string' }, (_req, body, done) => {
    done(null, body);
  });
};

/** The first value of a query parameter (`?a=1&a=2` → `1`), as Go's `Query().Get` does. */
export const firstParam = (value: unknown): string | undefined => {
  if (Array.isArray(value)) return typeof value[0] === 'string' ? value[0] : undefined;
  return typeof value === 'string' ? value : undefined;
};
