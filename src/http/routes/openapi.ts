import type { OpenApiDocument } from '../openapi.js';
import type { HttpServer } from '../server.js';

/**
 * `GET /openapi.json`: the OpenAPI 3.1 document of this server (`openapi.ts`), serialized once:
 * it depends only on the configuration. A Fastify route, not a lane's: nobody polls it.
 */
export const openApiRoutes = (server: HttpServer, opts: { document: OpenApiDocument }): void => {
  const body = JSON.stringify(opts.document);
  server.fastify.get('/openapi.json', async (_req, reply) => reply.type('application/json; charset=utf-8').send(body));
};
