import assert from 'node:assert/strict';
import { readFileSync, readdirSync } from 'node:fs';
import type { AddressInfo } from 'node:net';
import { after, before, describe, it } from 'node:test';
import { Validator } from '@seriousme/openapi-schema-validator';
import { openApiDocumentText } from '../../scripts/openapi-document.js';
import { openApiOptions } from '../../src/app.js';
import { buildOpenApiDocument } from '../../src/http/openapi.js';
import type { OpenApiDocument } from '../../src/http/openapi.js';
import { buildTestApp } from '../support/app.js';
import type { TestApp } from '../support/app.js';
import { curlExamples } from '../support/markdown-curl.js';
import { allRefs, bodyValidator, componentValidator, documentOperations, findOperation, queryValidator, resolveRef } from '../support/openapi.js';

const root = new URL('../../', import.meta.url);
const committed = readFileSync(new URL('docs/openapi.json', root), 'utf8');
const doc = JSON.parse(committed) as OpenApiDocument;

/**
 * Fastify's routes, `METHOD /path` in OpenAPI form, from `printRoutes` (a tree: a child's
 * segment follows its parent's). The lanes serve only routes `answerGet`/`answerPost` also
 * register with Fastify, so this list covers theirs. HEAD (Fastify's automatic twin of each GET)
 * and the CORS preflight (`OPTIONS *`) are not operations of the API.
 */
const fastifyRoutes = (tree: string): string[] => {
  const routes: string[] = [];
  const stack: string[] = [];
  for (const line of tree.split('\n')) {
    const m = /^((?:│ {3}| {4})*)[├└]── (\S+)(?: \(([^)]*)\))?$/.exec(line);
    if (m === null) continue;
    const depth = m[1]!.length / 4;
    stack.length = depth;
    const path = (stack[depth - 1] ?? '') + m[2]!;
    stack.push(path);
    for (const method of (m[3] ?? '').split(', ').filter((x) => x !== '' && x !== 'HEAD')) {
      if (method === 'OPTIONS' && path === '*') continue;
      routes.push(`${method} ${path.replace(/:(\w+)/g, '{$1}')}`);
    }
  }
  return routes.sort();
};

const documented = (d: OpenApiDocument): string[] => documentOperations(d).map((o) => `${o.method.toUpperCase()} ${o.path}`).sort();

describe('docs/openapi.json', () => {
  it('is what the code generates (run `npm run openapi` after changing a route or schema)', () => {
    assert.equal(committed, openApiDocumentText());
  });

  it('is a valid OpenAPI 3.1 document', async () => {
    const result = await new Validator().validate(doc);
    assert.deepEqual(result.errors, undefined);
    assert.equal(result.valid, true);
    assert.equal(doc.openapi, '3.1.0');
  });

  it('has every $ref resolving, and every schema compiling as draft 2020-12', () => {
    const refs = allRefs(doc);
    assert.ok(refs.length > 20, `only ${refs.length} $refs`);
    for (const ref of refs) assert.notEqual(resolveRef(doc, ref), undefined, ref);
    for (const name of Object.keys((doc.components as { schemas: object }).schemas)) componentValidator(doc, name);
  });
});

describe('GET /openapi.json and the routes the server answers', () => {
  let app: TestApp;
  let base: string;
  before(async () => {
    app = await buildTestApp({ api: { 'api-key': 'k' } });
    await app.server.listen({ port: 0, host: '127.0.0.1' });
    base = `http://127.0.0.1:${(app.server.server.address() as AddressInfo).port}`;
  });
  after(() => app.close());

  it('serves the document of its configuration', async () => {
    const res = await fetch(`${base}/openapi.json`);
    assert.equal(res.status, 200);
    assert.match(res.headers.get('content-type') ?? '', /^application\/json/);
    assert.deepEqual(await res.json(), buildOpenApiDocument(openApiOptions(app.config)));
  });

  it('documents every route Fastify (and so each lane) serves, and nothing else', () => {
    const served = fastifyRoutes(app.server.printRoutes({ commonPrefix: false }));
    assert.ok(served.length >= 18, served.join('\n'));
    assert.deepEqual(documented(buildOpenApiDocument(openApiOptions(app.config))), served);
  });

  it('answers every documented operation (over a socket: the lanes and Fastify), never with a 404 of its router', async () => {
    for (const { path, method } of documentOperations(doc)) {
      const url = `${base}${path.replace('{name}', 'appnexus')}`;
      const res = await fetch(url, { method: method.toUpperCase(), ...(method === 'post' ? { body: '{}', headers: { 'content-type': 'application/json' } } : {}) });
      const text = await res.text();
      assert.notEqual(res.status, 404, `${method} ${path}: ${text}`);
      assert.ok(!text.startsWith('Not found:'), `${method} ${path}`);
    }
  });

  it('moves module storage with api.storage-path and leaves out /metrics when metrics are off', async () => {
    const other = await buildTestApp({ api: { 'storage-path': '/store' }, metrics: { enabled: false } });
    try {
      const served = (await other.server.inject({ method: 'GET', url: '/openapi.json' })).json<OpenApiDocument>();
      assert.deepEqual(documented(served), fastifyRoutes(other.server.printRoutes({ commonPrefix: false })));
      assert.ok('/store' in served.paths && !('/storage' in served.paths) && !('/metrics' in served.paths));
    } finally {
      await other.close();
    }
  });
});

describe('the request examples of the README and docs/*.md', () => {
  const files = ['README.md', ...readdirSync(new URL('docs/', root)).filter((f) => f.endsWith('.md')).map((f) => `docs/${f}`)];
  const examples = files.flatMap((f) => curlExamples(f, readFileSync(new URL(f, root), 'utf8')));

  it('are found (the extraction itself works)', () => {
    assert.ok(examples.length >= 10, `${examples.length} curl examples`);
    assert.ok(examples.some((e) => e.body !== undefined && e.method === 'POST'));
  });

  for (const example of examples) {
    it(`${example.where} matches its operation`, () => {
      const operation = findOperation(doc, example.method, example.url.pathname);
      assert.ok(operation !== undefined, `no ${example.method} ${example.url.pathname} in the document`);
      // A repeated parameter counts once (the first), as every route reads it.
      const query = Object.fromEntries([...example.url.searchParams].reverse());
      const checkQuery = queryValidator(doc, operation);
      assert.ok(checkQuery(query), JSON.stringify(checkQuery.errors));
      const checkBody = bodyValidator(doc, operation);
      assert.equal(checkBody !== undefined, example.body !== undefined, 'a body exactly where the operation takes one');
      if (checkBody !== undefined) assert.ok(checkBody(JSON.parse(example.body!)), JSON.stringify(checkBody.errors));
    });
  }
});
