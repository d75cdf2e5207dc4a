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
    acceptAnyBodyAsText(scope);

    scope.post('/cache', { bodyLimit: opts.maxBodyBytes }, async (req, reply) => {
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

export const putResponseBody = (uuids: readonly string[]): string => {
  let body = '{"responses":[';
  for (let i = 0; i < uuids.length; i++) body += `${i === 0 ? '' : ','}{"uuid":${JSON.stringify(uuids[i])}}`;
  return `${body}]}`;
};

/**
 * Sends a cached value's bytes with exactly `application/xml` or `application/json`, as Prebid
 * Cache does (Fastify adds no charset to a Buffer body).
 */
export const sendCachedValue = (reply: FastifyReply, value: CachedValue): FastifyReply =>
  reply.type(CONTENT_TYPES[value.type]).send(value.body);
