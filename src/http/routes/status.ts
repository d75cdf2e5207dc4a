import type { FastifyInstance } from 'fastify';

/**
 * `GET /status`: 204 while serving, 503 once shutdown has begun, so a load balancer drains this
 * instance. It does not probe Redis: a shared backend outage must not take every instance out of
 * rotation at once (the endpoints themselves answer 5xx quickly instead).
 */
export const statusRoutes = (server: FastifyInstance, opts: { isShuttingDown: () => boolean }): void => {
  server.get('/status', async (_req, reply) => {
    if (opts.isShuttingDown()) return reply.code(503).type('text/plain; charset=utf-8').send('shutting down');
    return reply.code(204).send();
  });
};
