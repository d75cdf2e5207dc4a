import type { CacheClient } from '../cache/cache-client.js';
import type { CachedValue } from '../cache/cache-service.js';
import { AppError, ErrorCode, isAppError } from '../core/app-error.js';
import { mapMaybe } from '../core/maybe-promise.js';
import type { MaybePromise } from '../core/maybe-promise.js';
import type { Metrics } from '../metrics/metrics.js';
import type { AccountResolver } from '../stored/account.js';
import { insertImpression } from './vast-impression.js';
import { parseTrackRequest } from './vtrack-request.js';
import type { TrackPut } from './vtrack-request.js';

export interface VtrackServiceOptions {
  readonly cache: CacheClient;
  readonly resolveAccount: AccountResolver;
  /** `server.external_url`: the event URLs put into VAST point here. */
  readonly externalUrl: string;
  readonly metrics: Metrics;
}

/**
 * The impression URLs of a server (`externalUrl`, trailing slashes dropped): for a put, `/event`
 * with `t=imp` and `f=b`, every value URL-encoded (which also keeps `]]>` out of the CDATA it goes
 * into).
 */
const impressionUrls = (externalUrl: string) => {
  const eventUrl = `${externalUrl.replace(/\/+$/, '')}/event?t=imp&b=`;
  return (account: string, put: TrackPut): string =>
    `${eventUrl}${encodeURIComponent(put.bidId)}&a=${encodeURIComponent(account)}` +
    `&aid=${encodeURIComponent(put.auctionId)}&ts=${put.timestamp}&bidder=${encodeURIComponent(put.bidder)}&f=b`;
};

/**
 * A cache error as `/vtrack` answers it: the cache's messages name the request they answer
 * (`GET /cache uuid=…: Key not found`, `POST /cache element 0 exceeded max size…`), and the
 * caller sent `GET /vtrack` or `POST /vtrack`. Other errors (and a remote cache's own words,
 * quoted after a message of ours) are left as they are.
 */
const onVtrack = (err: unknown, method: 'GET' | 'POST'): unknown => {
  const cacheRoute = `${method} /cache`;
  if (!isAppError(err) || !err.message.startsWith(cacheRoute)) return err;
  return new AppError(err.code, `${method} /vtrack${err.message.slice(cacheRoute.length)}`, { cause: err });
};

const rethrowOnVtrackGet = (err: unknown): never => {
  throw onVtrack(err, 'GET');
};
const rethrowOnVtrackPost = (err: unknown): never => {
  throw onVtrack(err, 'POST');
};

/**
 * `/vtrack`: adds an impression tracking tag pointing at `/event` to each VAST put, then writes
 * all puts to the cache in one atomic batch. VAST without `<InLine>`/`<Wrapper>` (and malformed
 * VAST the insertion cannot place a tag in) is stored unchanged and counted. The account follows
 * the `/event` rules: events disabled, or unknown while accounts are required, is refused.
 */
export const createVtrackService = (opts: VtrackServiceOptions) => {
  const puts = opts.metrics.counter({
    name: 'openbid_vtrack_puts_total',
    help: 'VAST puts on /vtrack by result: modified (a tracking tag added) or unchanged (no InLine/Wrapper to add it to).',
    labelNames: ['result'],
  });
  const modified = puts.with({ result: 'modified' });
  const unchanged = puts.with({ result: 'unchanged' });
  const impressionUrl = impressionUrls(opts.externalUrl);

  return {
    /**
     * The uuids of the cached puts, in order: directly when the account and the cache answer
     * directly (this process's memory cache), else with a promise. Fails (throws, or rejects)
     * with the request's problems, a refused account or a cache failure.
     */
    put(account: string | undefined, body: string): MaybePromise<string[]> {
      const request = parseTrackRequest(account, body);
      return mapMaybe(opts.resolveAccount(request.account), (resolved) => {
        if (!resolved.events.enabled) throw new AppError(ErrorCode.UNAUTHORIZED, `Account '${request.account}' doesn't support events`);
        const cachePuts = request.puts.map((put) => {
          const result = insertImpression(put.value, impressionUrl(request.account, put));
          (result.inserted > 0 ? modified : unchanged).inc();
          return { type: 'xml', value: result.vast, ttlseconds: put.ttlSeconds };
        });
        let written: MaybePromise<string[]>;
        try {
          written = opts.cache.put(cachePuts);
        } catch (err) {
          throw onVtrack(err, 'POST');
        }
        return written instanceof Promise ? written.catch(rethrowOnVtrackPost) : written;
      });
    },

    get: (uuid: string | undefined): Promise<CachedValue> => opts.cache.get(uuid).catch(rethrowOnVtrackGet),
  };
};

export type VtrackService = ReturnType<typeof createVtrackService>;
