import type { IncomingHttpHeaders } from 'node:http';
import { AppError, ErrorCode } from '../../core/app-error.js';
import { mapMaybe } from '../../core/maybe-promise.js';
import { API_KEY_HEADER, LEGACY_API_KEY_HEADER, createApiKeyCheck } from '../../storage/api-key.js';
import { parseStorageEntry } from '../../storage/storage-entry.js';
import type { StorageLimits } from '../../storage/storage-entry.js';
import type { StorageService } from '../../storage/storage-service.js';
import { bytesAnswer } from '../answer.js';
import type { Answer } from '../answer.js';
import type { Bytes } from '../../core/bytes.js';
import { acceptAnyBodyAsText, firstParam } from '../raw-body.js';
import type { HttpServer } from '../server.js';

const entryAnswer = (json: Bytes): Answer => bytesAnswer(200, 'application/json; charset=utf-8', json);

export interface StorageRoutesOptions {
  readonly storage: StorageService;
  readonly limits: StorageLimits;
  /** `api.storage-path`. */
  readonly path: string;
  /** `api.api-key`; empty refuses every write. */
  readonly apiKey: string;
  readonly readPublic: boolean;
}

const providedKey = (headers: IncomingHttpHeaders): string | undefined => {
  const h = headers[API_KEY_HEADER] ?? headers[LEGACY_API_KEY_HEADER];
  return Array.isArray(h) ? h[0] : h;
};

/** `POST {path}` writes an entry (204); `GET {path}?application=&key=` (or `a=`, `k=`) reads one. */
export const storageRoutes = (server: HttpServer, opts: StorageRoutesOptions): void => {
  // A value of max_value_bytes may be escaped in JSON (quotes, control characters), so the body
  // may be a few times larger; beyond this the body is refused with 413 before it is read whole.
  const bodyLimit = opts.limits.maxValueBytes * 6 + 64 * 1024;
  const checkApiKey = createApiKeyCheck(opts.apiKey);

  void server.fastify.register((scope, _o, done) => {
    acceptAnyBodyAsText(scope);
    // The key is checked before the body is parsed: callers without it get nothing parsed.
    scope.addHook('preParsing', (req, _reply, payload, next) => {
      try {
        checkApiKey(providedKey(req.headers));
      } catch (err) {
        return next(err as Error);
      }
      next(null, payload);
    });
    scope.post(opts.path, { bodyLimit }, async (req, reply) => {
      const entry = parseStorageEntry(typeof req.body === 'string' ? req.body : '', opts.limits);
      await opts.storage.write(entry);
      return reply.code(204).send();
    });
    done();
  });

  server.answerGet(opts.path, ({ query, headers }) => {
    if (!opts.readPublic) checkApiKey(providedKey(headers));
    const application = firstParam(query.application) ?? firstParam(query.a);
    const key = firstParam(query.key) ?? firstParam(query.k);
    const problems = [
      ...(application ? [] : ['Missing required parameter application (or a).']),
      ...(key ? [] : ['Missing required parameter key (or k).']),
    ];
    if (problems.length > 0) throw new AppError(ErrorCode.BAD_REQUEST, problems.join('\n'));
    return mapMaybe(opts.storage.readJson(application as string, key as string), entryAnswer);
  });
};
