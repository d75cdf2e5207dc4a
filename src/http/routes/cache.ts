import type { CachedValue, CacheService } from '../../cache/cache-service.js';
import { CONTENT_TYPES } from '../../cache/stored-value.js';
import { mapMaybe } from '../../core/maybe-promise.js';
import type { Answer } from '../answer.js';
import { acceptAnyBodyAsText, firstParam } from '../raw-body.js';
import type { HttpServer } from '../server.js';

export interface CacheRoutesOptions {
  readonly cache: CacheService;
  readonly maxBodyBytes: number;
}

/** `POST /cache` and `GET /cache?uuid=`. */
export const cacheRoutes = (server: HttpServer, opts: CacheRoutesOptions): void => {
  void server.fastify.register((scope, _o, done) => {
    acceptAnyBodyAsText(scope);

    scope.post('/cache', { bodyLimit: opts.maxBodyBytes }, async (req, reply) => {
      const uuids = await opts.cache.putRequest(typeof req.body === 'string' ? req.body : '');
      return reply.type('application/json').send(putResponseBody(uuids));
    });
    done();
  });
  server.answerGet('/cache', ({ query }) => mapMaybe(opts.cache.get(firstParam(query.uuid)), cachedValueAnswer));
};

export const putResponseBody = (uuids: readonly string[]): string => {
  let body = '{"responses":[';
  for (let i = 0; i < uuids.length; i++) body += `${i === 0 ? '' : ','}{"uuid":${JSON.stringify(uuids[i])}}`;
  return `${body}]}`;
};

/** A cached value's bytes with exactly `application/xml` or `application/json`, as Prebid Cache answers. */
export const cachedValueAnswer = (value: CachedValue): Answer => ({ status: 200, contentType: CONTENT_TYPES[value.type], body: value.body });
