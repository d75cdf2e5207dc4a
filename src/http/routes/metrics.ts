import type { FastifyInstance } from 'fastify';
import type { Metrics } from '../../metrics/metrics.js';

/** `GET /metrics`: Prometheus text exposition. */
export const metricsRoutes = (server: FastifyInstance, opts: { metrics: Metrics }): void => {
  server.get('/metrics', async (_req, reply) => {
    const { contentType, body } = await opts.metrics.render();
    return reply.type(contentType).header('cache-control', 'no-cache').send(body);
  });
};
