import assert from 'node:assert/strict';
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, it } from 'node:test';
import { request as httpRequest } from 'undici';
import type { AppOverrides } from '../../src/app.js';
import type { LanesSetting } from '../../src/http/server.js';
import { buildTestApp } from './app.js';
import { startMockBidder } from './mock-bidder.js';
import type { MockBidder, MockBidderSpec } from './mock-bidder.js';

/**
 * An endpoint fixture: a config and a sequence of requests with the responses they must get.
 * Ids come from `sequentialIds()`, so the n-th generated uuid is `00000000-0000-4000-8000-<n as 12 hex digits>`.
 */
export interface Fixture {
  readonly description: string;
  readonly config?: Record<string, unknown>;
  /**
   * Mock bidders (real HTTP servers on 127.0.0.1) started before the app, by name; the text
   * `{{bidder.<name>}}` anywhere in the config or a request stands for the mock's URL.
   */
  readonly bidders?: Record<string, MockBidderSpec>;
  readonly steps: readonly FixtureStep[];
}

export interface FixtureStep {
  readonly request: {
    readonly method: 'GET' | 'POST' | 'OPTIONS' | 'HEAD';
    readonly url: string;
    readonly headers?: Record<string, string>;
    /** A string is sent as is; anything else as its JSON text. */
    readonly body?: unknown;
  };
  readonly response: {
    readonly status: number;
    /** Each listed header must have exactly this value; `null` means it must be absent. */
    readonly headers?: Record<string, string | null>;
    /** The body parsed as JSON must deep-equal this. */
    readonly json?: unknown;
    /** The body must be exactly this text. */
    readonly text?: string;
    /** The body must start with this text (for messages that quote the JSON parser). */
    readonly textStartsWith?: string;
    /** The body parsed as JSON must contain this: objects key by key, arrays element by element (same length). */
    readonly jsonSubset?: unknown;
    /** The body must contain this text. */
    readonly textContains?: string;
    /** The answer must come within this many ms of sending the request. */
    readonly withinMs?: number;
  };
  /** What each named mock bidder received during this step: one JSON subset per request, in order. */
  readonly bidderReceived?: Record<string, readonly unknown[]>;
}

export interface FixtureRunOptions {
  /** Config under each fixture's own (deep-merged), e.g. a Redis backend. */
  readonly baseConfig?: () => Record<string, unknown>;
  readonly overrides?: () => AppOverrides;
  /** Runs before each fixture, e.g. to empty a shared Redis. */
  readonly beforeEach?: () => Promise<void>;
  /** Rewrites each fixture's merged config, e.g. to move memory applications to Redis. */
  readonly transformConfig?: (config: Record<string, unknown>) => Record<string, unknown>;
  readonly label?: string;
  /**
   * The `server.lanes` values to run every fixture under, each as its own suite: the same
   * requests must get the same answers whichever path serves them. Default: all of them.
   */
  readonly lanes?: readonly LanesSetting[];
}

/** Every `server.lanes` value: the socket and node lanes, the node lane alone, Fastify alone. */
export const ALL_LANES: readonly LanesSetting[] = ['all', 'node', 'off'];

/**
 * Runs every `*.json` fixture in `dir` as one test, each against a fresh app listening on
 * 127.0.0.1, once for each `server.lanes` value: requests go over a real socket, so the lanes
 * serve what they would in production and Fastify the rest.
 */
export const runFixtureDir = (dir: string, opts: FixtureRunOptions = {}): void => {
  const files = readdirSync(dir).filter((f) => f.endsWith('.json')).sort();
  assert.ok(files.length > 0, `no fixtures in ${dir}`);
  for (const lanes of opts.lanes ?? ALL_LANES) describeFixtures(dir, files, lanes, opts);
};

const describeFixtures = (dir: string, files: readonly string[], lanes: LanesSetting, opts: FixtureRunOptions): void => {
  describe(`fixtures in ${dir}${opts.label ? ` (${opts.label})` : ''}, server.lanes: ${lanes}`, () => {
    for (const file of files) {
      const fixture = JSON.parse(readFileSync(join(dir, file), 'utf8')) as Fixture;
      it(`${file}: ${fixture.description}`, async () => {
        await opts.beforeEach?.();
        const bidders = new Map<string, MockBidder>();
        try {
          for (const [name, spec] of Object.entries(fixture.bidders ?? {})) bidders.set(name, await startMockBidder(spec));
          const withUrls = <T>(value: T): T => substituteBidderUrls(value, bidders);
          const merged = deepMerge(deepMerge({ server: { lanes } }, opts.baseConfig?.() ?? {}), withUrls(fixture.config ?? {}));
          const config = opts.transformConfig ? opts.transformConfig(merged) : merged;
          const app = await buildTestApp(config, opts.overrides?.() ?? {});
          try {
            const base = await app.server.listen({ host: '127.0.0.1', port: 0 });
            for (const [i, step] of fixture.steps.entries()) {
              const seen = new Map([...bidders].map(([name, b]) => [name, b.received.length]));
              await runStep(base, withUrls(step), `${file} step ${i + 1}`);
              for (const [name, wanted] of Object.entries(step.bidderReceived ?? {})) {
                const mock = bidders.get(name);
                assert.ok(mock, `${file} step ${i + 1}: no mock bidder ${name}`);
                const got = mock.received.slice(seen.get(name)).map((r) => JSON.parse(r.body) as unknown);
                assert.equal(got.length, wanted.length, `${file} step ${i + 1}: requests received by ${name}`);
                wanted.forEach((w, j) => assertSubset(got[j], w, `${file} step ${i + 1}: ${name} request ${j + 1}`));
              }
            }
          } finally {
            await app.close();
          }
        } finally {
          await Promise.all([...bidders.values()].map((b) => b.close()));
        }
      });
    }
  });
};

const runStep = async (base: string, step: FixtureStep, where: string): Promise<void> => {
  const { request, response } = step;
  const sentAt = performance.now();
  const res = await httpRequest(`${base}${request.url}`, {
    method: request.method,
    headers: request.headers ?? {},
    ...(request.body === undefined ? {} : { body: typeof request.body === 'string' ? request.body : JSON.stringify(request.body) }),
  });
  const body = await res.body.text();
  const elapsedMs = performance.now() - sentAt;
  assert.equal(res.statusCode, response.status, `${where}: status (body: ${body.slice(0, 300)})`);
  if (response.withinMs !== undefined) assert.ok(elapsedMs <= response.withinMs, `${where}: answered after ${Math.round(elapsedMs)} ms, over ${response.withinMs}`);
  if (response.jsonSubset !== undefined) assertSubset(JSON.parse(body) as unknown, response.jsonSubset, `${where}: JSON body`);
  if (response.textContains !== undefined) assert.ok(body.includes(response.textContains), `${where}: body ${body.slice(0, 500)} lacks ${response.textContains}`);
  for (const [name, value] of Object.entries(response.headers ?? {})) {
    assert.equal(res.headers[name.toLowerCase()] ?? null, value, `${where}: header ${name}`);
  }
  if (response.json !== undefined) assert.deepEqual(JSON.parse(body) as unknown, response.json, `${where}: JSON body`);
  if (response.text !== undefined) assert.equal(body, response.text, `${where}: body`);
  if (response.textStartsWith !== undefined) assert.ok(body.startsWith(response.textStartsWith), `${where}: body ${body}`);
};

const isPlainObject = (v: unknown): v is Record<string, unknown> => typeof v === 'object' && v !== null && !Array.isArray(v);

/**
 * Asserts `actual` contains `expected`: objects key by key (other keys allowed; a key expected as
 * `null` must be absent), arrays element by element with the same length, anything else equal.
 */
export const assertSubset = (actual: unknown, expected: unknown, where: string): void => {
  if (isPlainObject(expected)) {
    assert.ok(isPlainObject(actual), `${where}: expected an object, got ${JSON.stringify(actual)?.slice(0, 300)}`);
    for (const [k, v] of Object.entries(expected)) {
      if (v === null) assert.ok(!(k in actual), `${where}.${k}: expected absent, got ${JSON.stringify(actual[k])?.slice(0, 300)}`);
      else assertSubset(actual[k], v, `${where}.${k}`);
    }
  } else if (Array.isArray(expected)) {
    assert.ok(Array.isArray(actual), `${where}: expected an array, got ${JSON.stringify(actual)?.slice(0, 300)}`);
    assert.equal(actual.length, expected.length, `${where}: length (got ${JSON.stringify(actual).slice(0, 500)})`);
    expected.forEach((v, i) => assertSubset(actual[i], v, `${where}[${i}]`));
  } else {
    assert.deepEqual(actual, expected, where);
  }
};

/** `value` with every `{{bidder.<name>}}` replaced by that mock bidder's URL. */
const substituteBidderUrls = <T>(value: T, bidders: ReadonlyMap<string, MockBidder>): T => {
  if (bidders.size === 0) return value;
  const text = JSON.stringify(value).replace(/\{\{bidder\.([\w-]+)\}\}/g, (whole, name: string) => bidders.get(name)?.url ?? whole);
  return JSON.parse(text) as T;
};

/** `over` merged onto `base`; objects merge key by key, anything else replaces. */
export const deepMerge = (base: Record<string, unknown>, over: Record<string, unknown>): Record<string, unknown> => {
  const out: Record<string, unknown> = { ...base };
  for (const [k, v] of Object.entries(over)) {
    const b = out[k];
    out[k] = isPlainObject(b) && isPlainObject(v) ? deepMerge(b, v) : v;
  }
  return out;
};
