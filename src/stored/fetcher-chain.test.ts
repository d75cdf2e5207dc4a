import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { AppError, ErrorCode, isAppError } from '../core/app-error.js';
import type { Logger } from '../core/logger.js';
import { silentLogger } from '../core/logger.js';
import type { AccountFetcher, AccountSettings } from './account.js';
import { InvalidStoredData } from './errors.js';
import { createAccountChain, createStoredRequestChain } from './fetcher-chain.js';
import type { StoredRequestFetcher } from './stored-request-fetcher.js';

/** A source holding `data`, recording what it was asked, or failing with `fail`. */
const source = (data: Record<string, string>, fail?: Error) => {
  const asked: string[][] = [];
  const fetcher: StoredRequestFetcher = {
    fetchRequests: async (requestIds, impIds) => {
      asked.push([...requestIds, '|', ...impIds]);
      if (fail !== undefined) throw fail;
      const requests = new Map(requestIds.filter((id) => data[`r:${id}`] !== undefined).map((id) => [id, data[`r:${id}`] as string]));
      const imps = new Map(impIds.filter((id) => data[`i:${id}`] !== undefined).map((id) => [id, data[`i:${id}`] as string]));
      return { requests, imps, missing: [...requestIds.filter((id) => !requests.has(id)), ...impIds.filter((id) => !imps.has(id))] };
    },
  };
  return { fetcher, asked };
};

const recordingLogger = () => {
  const warnings: { source: string; code: string }[] = [];
  const logger: Logger = { ...silentLogger, warn: (obj: unknown) => void warnings.push(obj as { source: string; code: string }), child: () => logger };
  return { logger, warnings };
};

const down = new AppError(ErrorCode.BACKEND_FAILURE, 'postgres: connect ECONNREFUSED');
const slow = new AppError(ErrorCode.BACKEND_TIMEOUT, 'http: no answer within 50 ms');

describe('stored request chain', () => {
  it('asks each source only for what the ones before it lacked; the first that has an id answers', async () => {
    const a = source({ 'r:r1': '{"from":"a"}' });
    const b = source({ 'r:r1': '{"from":"b"}', 'i:i1': '{"from":"b"}' });
    const c = source({ 'r:r2': '{"from":"c"}' });
    const chain = createStoredRequestChain([{ name: 'a', fetcher: a.fetcher }, { name: 'b', fetcher: b.fetcher }, { name: 'c', fetcher: c.fetcher }], silentLogger);
    const found = await chain.fetchRequests(['r1', 'r2', 'r3', 'r1'], ['i1']);
    assert.deepEqual(Object.fromEntries(found.requests), { r1: '{"from":"a"}', r2: '{"from":"c"}' });
    assert.deepEqual(Object.fromEntries(found.imps), { i1: '{"from":"b"}' });
    assert.deepEqual(found.missing, ['r3']);
    assert.deepEqual(a.asked, [['r1', 'r2', 'r3', '|', 'i1']]);
    assert.deepEqual(b.asked, [['r2', 'r3', '|', 'i1']]);
    assert.deepEqual(c.asked, [['r2', 'r3', '|']]);
  });

  it('stops asking once everything is found', async () => {
    const a = source({ 'r:r1': '{}' });
    const b = source({});
    await createStoredRequestChain([{ name: 'a', fetcher: a.fetcher }, { name: 'b', fetcher: b.fetcher }], silentLogger).fetchRequests(['r1'], []);
    assert.equal(b.asked.length, 0);
  });

  it('logs a source that fails or times out and lets the next one answer', async () => {
    const { logger, warnings } = recordingLogger();
    const chain = createStoredRequestChain(
      [
        { name: 'postgres', fetcher: source({}, down).fetcher },
        { name: 'http', fetcher: source({}, slow).fetcher },
        { name: 'files', fetcher: source({ 'r:r1': '{"ok":1}' }).fetcher },
      ],
      logger,
    );
    const found = await chain.fetchRequests(['r1'], []);
    assert.equal(found.requests.get('r1'), '{"ok":1}');
    assert.deepEqual(
      warnings.map((w) => [w.source, w.code]),
      [
        ['postgres', 'BACKEND_FAILURE'],
        ['http', 'BACKEND_TIMEOUT'],
      ],
    );
  });

  it('fails cleanly when an id is missing and a source that might have it failed', async () => {
    const chain = (first: Error, second: Error | undefined) =>
      createStoredRequestChain([{ name: 'postgres', fetcher: source({}, first).fetcher }, { name: 'http', fetcher: source({}, second).fetcher }], silentLogger);
    await assert.rejects(chain(down, slow).fetchRequests(['r1'], []), (err) => isAppError(err) && err.code === 'BACKEND_FAILURE' && err.message === 'stored requests unavailable: postgres, http failed');
    await assert.rejects(chain(slow, slow).fetchRequests(['r1'], []), (err) => isAppError(err) && err.code === 'BACKEND_TIMEOUT');
    await assert.rejects(chain(down, undefined).fetchRequests(['r1'], []), (err) => isAppError(err) && err.code === 'BACKEND_FAILURE' && err.message === 'stored requests unavailable: postgres failed');
    // A plain error (a bug, a driver error) comes out as a BACKEND_FAILURE too.
    await assert.rejects(chain(new TypeError('oops'), new TypeError('oops')).fetchRequests(['r1'], []), (err) => isAppError(err) && err.code === 'BACKEND_FAILURE');
  });

  it('does not hide invalid stored data behind the next source', async () => {
    const next = source({ 'r:r1': '{}' });
    const chain = createStoredRequestChain([{ name: 'a', fetcher: source({}, new InvalidStoredData('bad data')).fetcher }, { name: 'b', fetcher: next.fetcher }], silentLogger);
    await assert.rejects(chain.fetchRequests(['r1'], []), /bad data/);
    assert.equal(next.asked.length, 0);
  });

  it('stops at the caller’s deadline', async () => {
    const abort = new AbortController();
    abort.abort();
    const chain = createStoredRequestChain([{ name: 'a', fetcher: source({ 'r:r1': '{}' }).fetcher }], silentLogger);
    await assert.rejects(chain.fetchRequests(['r1'], [], { signal: abort.signal }), (err) => isAppError(err) && err.code === 'BACKEND_TIMEOUT');
  });
});

describe('account chain', () => {
  const settings: AccountSettings = { events: { enabled: false } };
  const inProcess = (known: Record<string, AccountSettings>): AccountFetcher => ({ fetch: (id) => known[id] });
  const remote = (known: Record<string, AccountSettings>, fail?: Error): AccountFetcher => ({
    fetch: async (id) => {
      if (fail !== undefined) throw fail;
      return known[id];
    },
  });

  it('answers directly while the sources do', () => {
    const chain = createAccountChain([{ name: 'config', fetcher: inProcess({ a: settings }) }, { name: 'more', fetcher: inProcess({ b: settings }) }], silentLogger);
    assert.equal(chain.fetch('a'), settings);
    assert.equal(chain.fetch('b'), settings);
    assert.equal(chain.fetch('c'), undefined);
  });

  it('takes the first source that knows the account, past failing ones', async () => {
    const { logger, warnings } = recordingLogger();
    const throwing: AccountFetcher = {
      fetch: () => {
        throw down;
      },
    };
    const chain = createAccountChain(
      [
        { name: 'config', fetcher: inProcess({}) },
        { name: 'sync-down', fetcher: throwing },
        { name: 'postgres', fetcher: remote({}, down) },
        { name: 'http', fetcher: remote({ a: settings }) },
      ],
      logger,
    );
    assert.equal(await chain.fetch('a'), settings);
    assert.deepEqual(
      warnings.map((w) => w.source),
      ['sync-down', 'postgres'],
    );
  });

  it('fails cleanly when no source knows the account and one failed; never hides invalid settings', async () => {
    const chain = createAccountChain([{ name: 'postgres', fetcher: remote({}, slow) }, { name: 'http', fetcher: remote({}) }], silentLogger);
    await assert.rejects(async () => chain.fetch('a'), (err) => isAppError(err) && err.code === 'BACKEND_TIMEOUT' && err.message === 'accounts unavailable: postgres failed');
    const invalid = createAccountChain([{ name: 'file', fetcher: remote({}, new InvalidStoredData("account 'a' from file has invalid settings")) }, { name: 'http', fetcher: remote({ a: settings }) }], silentLogger);
    await assert.rejects(async () => invalid.fetch('a'), /invalid settings/);
  });
});
