import type { CachedValue, CacheService } from '../../cache/cache-service.js';
import { CONTENT_TYPES } from '../../cache/stored-value.js';
import { mapMaybe } from '../../core/maybe-promise.js';
import { bytesAnswer } from '../answer.js';
import type { Answer } from '../answer.js';
import { firstParam } from '../raw-body.js';
import type { HttpServer } from '../server.js';

export interface CacheRoutesOptions {
  readonly cache: CacheService;
  readonly maxBodyBytes: number;
}

/** `POST /cache` and `GET /cache?uuid=`. */
export const cacheRoutes = (server: HttpServer, opts: CacheRoutesOptions): void => {
  server.answerPost('/cache', opts.maxBodyBytes, ({ body }) => mapMaybe(opts.cache.putRequest(body), putAnswer));
  server.answerGet('/cache', ({ query }) => mapMaybe(opts.cache.get(firstParam(query.uuid)), cachedValueAnswer));
};

/** The answer to a write of puts: each one's uuid, in put order. */
export const putAnswer = (uuids: readonly string[]): Answer => ({ status: 200, contentType: 'application/json; charset=utf-8', body: putResponseBody(uuids) });

const putResponseBody = (uuids: readonly string[]): string => {
  let body = '{"responses":[';
  for (let i = 0; i < uuids.length; i++) body += `${i === 0 ? '' : ','}{"uuid":${JSON.stringify(uuids[i])}}`;
  return `${body}]}`;
};

/** A cached value's bytes with exactly `application/xml` or `application/json`, as Prebid Cache answers. */
export const cachedValueAnswer = (value: CachedValue): Answer => bytesAnswer(200, CONTENT_TYPES[value.type], value.body);
