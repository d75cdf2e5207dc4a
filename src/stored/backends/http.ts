import { Agent, request } from 'undici';
import { checkedAccountSettings } from '../account.js';
import type { AccountFetcher, AccountSettings } from '../account.js';
import { backendFailure, backendTimeout } from '../errors.js';
import type { Closable, StoredRequestFetcher } from '../stored-request-fetcher.js';
import { isObject } from '../../core/json-object.js';

/*
 * Stored data from an HTTP service, as Prebid Server's HTTP fetcher asks for it:
 *   GET {endpoint}?request-ids=["r1","r2"]&imp-ids=["i1"]  →  {"requests": {"r1": {..}}, "imps": {"i1": {..}}}
 *   GET {endpoint}?account-ids=["a1"]                      →  {"accounts": {"a1": {..}}}
 * An id the answer leaves out, or maps to null, is missing. Any status but 200, or an answer not of
 * that shape, is a failure of the service. Ids are not scoped by account (Prebid Server sends none).
 */

export interface HttpFetcherOptions {
  readonly endpoint: string;
  /** The whole call, connecting and reading included. */
  readonly timeoutMs: number;
  /** Largest answer read; larger is a failure. */
  readonly maxResponseBytes?: number;
}

const DEFAULT_MAX_RESPONSE_BYTES = 8 * 1024 * 1024;

class TooLarge extends Error {}

/** One keep-alive agent per service; GETs the URL and answers the parsed JSON object. */
const createJsonGetter = (opts: HttpFetcherOptions, source: string) => {
  const agent = new Agent({ connections: 16, keepAliveTimeout: 30_000 });
  const limit = opts.maxResponseBytes ?? DEFAULT_MAX_RESPONSE_BYTES;
  const get = async (params: Record<string, readonly string[]>, signal: AbortSignal | undefined): Promise<Record<string, unknown>> => {
    const url = new URL(opts.endpoint);
    for (const [name, ids] of Object.entries(params)) if (ids.length > 0) url.searchParams.set(name, JSON.stringify(ids));
    const timeout = AbortSignal.timeout(opts.timeoutMs);
    const combined = signal === undefined ? timeout : AbortSignal.any([timeout, signal]);
    let text: string;
    let status: number;
    try {
      const res = await request(url, { method: 'GET', dispatcher: agent, headers: { accept: 'application/json' }, signal: combined });
      res.body.on('error', () => undefined);
      status = res.statusCode;
      if (Number(res.headers['content-length'] ?? 0) > limit) {
        res.body.destroy();
        throw new TooLarge();
      }
      const chunks: Buffer[] = [];
      let size = 0;
      for await (const chunk of res.body as AsyncIterable<Buffer>) {
        size += chunk.length;
        if (size > limit) {
          res.body.destroy();
          throw new TooLarge();
        }
        chunks.push(chunk);
      }
      text = Buffer.concat(chunks, size).toString('utf8');
    } catch (err) {
      if (err instanceof TooLarge) throw backendFailure(source, `answer larger than ${limit} bytes`);
      if (timeout.aborted) throw backendTimeout(source, opts.timeoutMs);
      if (signal?.aborted) throw backendTimeout(source);
      const e = err as Error & { code?: string };
      throw backendFailure(source, e.code ? `${e.code}: ${e.message}` : e.message, err);
    }
    if (status !== 200) throw backendFailure(source, `unexpected response status ${status}`);
    let body: unknown;
    try {
      body = JSON.parse(text);
    } catch (err) {
      throw backendFailure(source, `answer is not JSON: ${(err as Error).message}`);
    }
    if (!isObject(body)) throw backendFailure(source, 'answer is not a JSON object');
    return body;
  };
  return { get, close: () => agent.close() };
};

/** The `name` member of an answer: an object of id → value, or absent. */
const section = (body: Record<string, unknown>, name: string, source: string): Record<string, unknown> => {
  const value = body[name];
  if (value === undefined || value === null) return {};
  if (!isObject(value)) throw backendFailure(source, `"${name}" in the answer is not an object`);
  return value;
};

/** Stored requests and imps from one GET per lookup. */
export const createHttpStoredRequestFetcher = (opts: HttpFetcherOptions): StoredRequestFetcher & Closable => {
  const source = 'http stored requests';
  const http = createJsonGetter(opts, source);
  return {
    fetchRequests: async (requestIds, impIds, fetchOpts = {}) => {
      const wantRequests = [...new Set(requestIds.filter((id) => id !== ''))];
      const wantImps = [...new Set(impIds.filter((id) => id !== ''))];
      const requests = new Map<string, string>();
      const imps = new Map<string, string>();
      if (wantRequests.length + wantImps.length > 0) {
        const body = await http.get({ 'request-ids': wantRequests, 'imp-ids': wantImps }, fetchOpts.signal);
        // The service's JSON is parsed to read the envelope; each value is kept as its JSON text, once.
        const pick = (from: Record<string, unknown>, ids: string[], to: Map<string, string>) => {
          for (const id of ids) {
            const v = Object.hasOwn(from, id) ? from[id] : undefined;
            if (v !== undefined && v !== null) to.set(id, JSON.stringify(v));
          }
        };
        pick(section(body, 'requests', source), wantRequests, requests);
        pick(section(body, 'imps', source), wantImps, imps);
      }
      const missing = [...wantRequests.filter((id) => !requests.has(id)), ...wantImps.filter((id) => !imps.has(id))];
      return { requests, imps, missing };
    },
    close: () => http.close(),
  };
};

/** Accounts from one GET per lookup, each checked against the account schema. */
export const createHttpAccountFetcher = (opts: HttpFetcherOptions): AccountFetcher & Closable => {
  const source = 'http accounts';
  const http = createJsonGetter(opts, source);
  return {
    fetch: async (id, fetchOpts): Promise<AccountSettings | undefined> => {
      if (id === '') return undefined;
      const accounts = section(await http.get({ 'account-ids': [id] }, fetchOpts?.signal), 'accounts', source);
      const value = Object.hasOwn(accounts, id) ? accounts[id] : undefined;
      return value === undefined || value === null ? undefined : checkedAccountSettings(id, value, 'http');
    },
    close: () => http.close(),
  };
};
