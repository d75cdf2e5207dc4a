import type { FastifyInstance, FastifyReply } from 'fastify';
import type { CachedValue, CacheService } from '../../cache/cache-service.js';
import { CONTENT_TYPES } from '../../cache/stored-value.js';
import { acceptAnyBodyAsText, firstParam } from '../raw-body.js';

export interface CacheRoutesOptions {
  readonly cache: CacheService;
  readonly maxBodyBytes: number;
}

/** `POST /cache` and `GET /cache?uuid=`. */
export const cacheRoutes = (server: FastifyInstance, opts: CacheRoutesOptions): void => {
  void server.register((scope, _o, done) => {
    acceptAnyBodyAsText(scope, opts.maxBodyBytes);
    scope.addHook('onRequest', (_req, reply, next) => {
      setCacheHeaders(reply);
      next();
    });

    scope.post('/cache', async (req, reply) => {
      const uuids = await opts.cache.putRequest(typeof req.body === 'string' ? req.body : '');
      return reply.type('application/json').send(putResponseBody(uuids));
    });

    scope.get('/cache', async (req, reply) => {
      const value = await opts.cache.get(firstParam((req.query as Record<string, unknown>).uuid));
      return sendCachedValue(reply, value);
    });
    done();
  });
};

/** Cached values must never be stored by a browser or proxy, nor sniffed into another type. */
export const setCacheHeaders = (reply: FastifyReply): void => {
  void reply.header('cache-control', 'no-cache').header('x-content-type-options', 'nosniff');
};

export const putResponseBody = (uuids: readonly string[]): string => JSON.stringify({ responses: uuids.map((uuid) => ({ uuid })) });

export const sendCachedValue = (reply: FastifyReply, value: CachedValue): FastifyReply =>
  reply.type(CONTENT_TYPES[value.type]).send(value.body);
