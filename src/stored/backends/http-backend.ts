import { createHttpAccountFetcher, createHttpStoredRequestFetcher } from './http.js';
import type { StoredBackendFactory } from './stored-backend.js';

/** `http`: Prebid Server's HTTP fetcher protocol, one service for stored requests and imps, one for accounts; an empty endpoint is not a source. */
export const httpBackend: StoredBackendFactory = async ({ storedRequests: sr, accounts: ac }) => {
  const requests = sr.http.endpoint === '' ? undefined : createHttpStoredRequestFetcher({ endpoint: sr.http.endpoint, timeoutMs: sr.http.timeout_ms });
  const accounts = ac.http.endpoint === '' ? undefined : createHttpAccountFetcher({ endpoint: ac.http.endpoint, timeoutMs: ac.http.timeout_ms });
  return {
    ...(requests === undefined ? {} : { storedRequests: requests }),
    ...(accounts === undefined ? {} : { accounts }),
    close: async () => {
      await Promise.all([requests?.close(), accounts?.close()]);
    },
  };
};
