import assert from 'node:assert/strict';
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, it } from 'node:test';
import { loadConfig } from './load.js';
import { redactConfig } from './redact.js';
import { problemsOf } from '../../test/support/config-problems.js';

const tempFile = (name: string, text: string): string => {
  const path = join(mkdtempSync(join(tmpdir(), 'openbid-config-')), name);
  writeFileSync(path, text);
  return path;
};

describe('loadConfig', () => {
  it('gives the embedded defaults with no file', () => {
    const c = loadConfig({});
    assert.equal(c.server.port, 8000);
    assert.equal(c.server.host, '0.0.0.0');
    assert.equal(c.server.external_url, 'http://localhost:8000');
    assert.equal(c.cache.backend.type, 'memory');
    assert.equal(c.cache.backend.memory.max_size_bytes, 268435456);
    assert.deepEqual(c.cache.request_limits, {
      max_size_bytes: 10240,
      max_num_values: 10,
      max_ttl_seconds: 3600,
      allow_setting_keys: false,
      max_key_length: 256,
      max_body_bytes: 1048576,
    });
    assert.equal(c.cache.backend.redis.timeout_ms, 100);
    assert.equal(c.metrics.enabled, true);
  });

  it('reads YAML and JSON files', () => {
    const yaml = tempFile('c.yaml', 'server:\n  port: 9001\ncache:\n  backend: {type: redis, redis: {url: "redis://10.0.0.1:6380"}}\n');
    const y = loadConfig({ file: yaml });
    assert.equal(y.server.port, 9001);
    assert.equal(y.cache.backend.redis.url, 'redis://10.0.0.1:6380');
    assert.equal(y.cache.backend.redis.timeout_ms, 100);
    const json = tempFile('c.json', JSON.stringify({ cache: { request_limits: { allow_setting_keys: true } } }));
    assert.equal(loadConfig({ file: json }).cache.request_limits.allow_setting_keys, true);
  });

  it('takes the file from OPENBID_CONFIG', () => {
    const yaml = tempFile('c.yaml', 'server: {port: 9002}\n');
    assert.equal(loadConfig({ env: { OPENBID_CONFIG: yaml } }).server.port, 9002);
  });

  it('applies environment overrides over the file, converting types', () => {
    const yaml = tempFile('c.yaml', 'server: {port: 9003}\n');
    const c = loadConfig({
      file: yaml,
      env: {
        OPENBID_SERVER__PORT: '9100',
        OPENBID_cache__request_limits__ALLOW_SETTING_KEYS: 'true',
        'OPENBID_CACHE__REQUEST-LIMITS__MAX_TTL_SECONDS': '60',
        OPENBID_CACHE__BACKEND__REDIS__CLUSTER_NODES: '127.0.0.1:7000, 127.0.0.1:7001',
        OPENBID_CONFIG_UNRELATED: 'ignored',
      },
    });
    assert.equal(c.server.port, 9100);
    assert.equal(c.cache.request_limits.allow_setting_keys, true);
    assert.equal(c.cache.request_limits.max_ttl_seconds, 60);
    assert.deepEqual(c.cache.backend.redis.cluster_nodes, ['127.0.0.1:7000', '127.0.0.1:7001']);
    assert.deepEqual(loadConfig({ env: { OPENBID_CACHE__BACKEND__REDIS__CLUSTER_NODES: '["a:1"]' } }).cache.backend.redis.cluster_nodes, ['a:1']);
  });

  it('reports every problem at once', () => {
    const problems = problemsOf(() =>
      loadConfig({
        raw: { server: { port: 'http', extra: 1 }, cache: { backend: { type: 'mongo' } }, bogus: {} },
        env: { OPENBID_SERVER__WORKERS: '0', OPENBID_NOPE__X: '1' },
      }),
    );
    assert.deepEqual([...problems].sort(), [
      'OPENBID_NOPE__X: no configuration key nope',
      'bogus: unknown key (value {})',
      'cache.backend.type: must be one of memory, redis (value "mongo")',
      'server.extra: unknown key (value 1)',
      'server.port: must be integer (value "http")',
      'server.workers: must be >= 1 (value 0) (set by OPENBID_SERVER__WORKERS)',
    ]);
  });

  it('names the environment variable that set an invalid value, also inside a JSON object or a cross-key rule', () => {
    const problems = problemsOf(() =>
      loadConfig({
        raw: { server: { port: 9000 } },
        env: {
          OPENBID_SERVER__PORT: 'nope',
          OPENBID_CACHE__REQUEST_LIMITS: '{"max_ttl_seconds": 0}',
        },
      }),
    );
    assert.deepEqual([...problems].sort(), [
      'cache.request_limits.max_ttl_seconds: must be >= 1 (value 0) (set by OPENBID_CACHE__REQUEST_LIMITS)',
      'server.port: must be integer (value "nope") (set by OPENBID_SERVER__PORT)',
    ]);
    assert.deepEqual(problemsOf(() => loadConfig({ env: { OPENBID_SERVER__WORKERS: '4' } })), [
      'server.workers: more than 1 worker needs cache.backend.type redis (a memory store is per process) (set by OPENBID_SERVER__WORKERS)',
    ]);
  });

  it('reports unreadable and unparsable files', () => {
    assert.match(problemsOf(() => loadConfig({ file: '/nonexistent/openbid.yaml' }))[0] ?? '', /cannot read config file .*ENOENT/);
    assert.match(problemsOf(() => loadConfig({ file: tempFile('bad.yaml', 'server: [\n') }))[0] ?? '', /cannot parse config file/);
    assert.match(problemsOf(() => loadConfig({ file: tempFile('list.yaml', '- 1\n') }))[0] ?? '', /must be a mapping/);
  });

  it('checks rules across keys', () => {
    assert.deepEqual(problemsOf(() => loadConfig({ raw: { server: { workers: 4 } } })), [
      'server.workers: more than 1 worker needs cache.backend.type redis (a memory store is per process)',
    ]);
    assert.equal(loadConfig({ raw: { server: { workers: 4 }, cache: { backend: { type: 'redis' } } } }).server.workers, 4);
    assert.match(problemsOf(() => loadConfig({ raw: { server: { external_url: 'ftp://x' } } }))[0] ?? '', /external_url/);
    assert.match(problemsOf(() => loadConfig({ raw: { cache: { backend: { type: 'redis', redis: { url: 'http://x' } } } } }))[0] ?? '', /redis:\/\//);
    assert.match(problemsOf(() => loadConfig({ raw: { cache: { backend: { redis: { cluster_nodes: ['nope'] } } } } }))[0] ?? '', /not host:port/);
    assert.deepEqual(problemsOf(() => loadConfig({ raw: { server: { port: 9000, admin_port: 9000 } } })), [
      'server.admin_port: must differ from server.port (9000); the admin listener is on 6060 unless set (0: none)',
    ]);
    // Metrics on the admin listener, 127.0.0.1:6060, and off the public port unless asked for.
    const { admin_port, admin_host, metrics_on_public_port } = loadConfig({ raw: {} }).server;
    assert.deepEqual({ admin_port, admin_host, metrics_on_public_port }, { admin_port: 6060, admin_host: '127.0.0.1', metrics_on_public_port: false });
    assert.match(problemsOf(() => loadConfig({ raw: { server: { port: 6060 } } }))[0] ?? '', /^server\.admin_port: must differ from server\.port \(6060\)/);
    assert.equal(loadConfig({ raw: { server: { port: 6060, admin_port: 0 } } }).server.admin_port, 0);
    assert.equal(loadConfig({ raw: {}, env: { OPENBID_SERVER__ADMIN_PORT: '9001' } }).server.admin_port, 9001);
  });

  it('reads the storage section: api keys as strings, defaults inside each application', () => {
    const c = loadConfig({
      raw: { api: { 'api-key': 12345 }, storage: { memory: { optable: {} }, redis: { 'prebid-Java': { port: 6380 } } } },
      env: { OPENBID_STORAGE__MEMORY__FROMENV: '{"max_size_bytes": 2048}', OPENBID_API__STORAGE_READ_PUBLIC: 'true' },
    });
    assert.equal(c.api['api-key'], '12345');
    assert.equal(c.api['storage-path'], '/storage');
    assert.equal(c.api['storage-read-public'], true);
    assert.deepEqual(c.storage.memory, { optable: { max_size_bytes: 67108864 }, FROMENV: { max_size_bytes: 2048 } });
    assert.deepEqual(c.storage.redis, {
      'prebid-Java': { host: '127.0.0.1', port: 6380, password: '', timeout_ms: 100, sentinel: { master_name: '', nodes: [], password: '', sentinel_password: '' } },
    });
    assert.equal(c.storage.default_ttl_seconds, 300);
    assert.equal(c.storage.max_value_bytes, 1048576);
  });

  it('checks storage rules', () => {
    const problems = problemsOf(() =>
      loadConfig({ raw: { api: { 'storage-path': 'storage' }, storage: { memory: { 'a:b': {}, both: {} }, redis: { both: {} }, default_ttl_seconds: 10, max_ttl_seconds: 5 } } }),
    );
    assert.deepEqual([...problems].sort(), [
      "api.storage-path: must be a path such as /storage, got 'storage'",
      'storage.default_ttl_seconds: must not exceed storage.max_ttl_seconds',
      "storage: application 'both' is configured both in storage.memory and storage.redis",
      "storage: application name 'a:b' must be letters, digits, '.', '_' or '-'",
    ]);
    assert.match(problemsOf(() => loadConfig({ raw: { storage: { redis: { app: { colour: 1 } } } } }))[0] ?? '', /storage\.redis\.app\.colour: unknown key/);
    assert.deepEqual(problemsOf(() => loadConfig({ raw: { api: { 'storage-path': '/cache/' } } })), ['api.storage-path: /cache/ is already an endpoint of this server']);
    assert.match(
      problemsOf(() => loadConfig({ raw: { server: { workers: 2 }, cache: { backend: { type: 'redis' } }, storage: { memory: { a: {} } } } }))[0] ?? '',
      /storage applications in storage.redis/,
    );
  });

  it('takes one Redis mode: url, cluster_nodes or sentinel, refusing two named together', () => {
    const sentinel = { master_name: 'm', nodes: ['127.0.0.1:26379', 'h:26380'], password: 'p' };
    const c = loadConfig({ raw: { cache: { backend: { type: 'redis', redis: { sentinel } } }, storage: { redis: { app: { sentinel } } } } });
    assert.deepEqual(c.cache.backend.redis.sentinel, { ...sentinel, sentinel_password: '' });
    assert.deepEqual(c.storage.redis.app?.sentinel.nodes, sentinel.nodes);
    assert.deepEqual(problemsOf(() => loadConfig({ raw: { cache: { backend: { redis: { url: 'redis://h:1', sentinel } } } } })), [
      'cache.backend.redis: set one of url, cluster_nodes or sentinel, not sentinel and url',
    ]);
    assert.deepEqual(problemsOf(() => loadConfig({ raw: { cache: { backend: { redis: { cluster_nodes: ['h:1'], sentinel } } } } })), [
      'cache.backend.redis: set one of url, cluster_nodes or sentinel, not sentinel and cluster_nodes',
    ]);
    assert.deepEqual(
      problemsOf(() => loadConfig({ raw: {}, env: { OPENBID_CACHE__BACKEND__REDIS__URL: 'redis://h:1', OPENBID_CACHE__BACKEND__REDIS__SENTINEL: JSON.stringify(sentinel) } })),
      ['cache.backend.redis: set one of url, cluster_nodes or sentinel, not sentinel and url'],
    );
    assert.deepEqual(problemsOf(() => loadConfig({ raw: { storage: { redis: { app: { port: 6380, password: 'x', sentinel } } } } })), [
      'storage.redis.app: set host and port or sentinel, not sentinel and port and password',
    ]);
    // Cluster seeds with a url for their credentials stay as they were.
    assert.equal(loadConfig({ raw: { cache: { backend: { redis: { url: 'redis://:pw@h:1', cluster_nodes: ['h:1'] } } } } }).cache.backend.redis.url, 'redis://:pw@h:1');
    assert.deepEqual([...problemsOf(() => loadConfig({ raw: { cache: { backend: { redis: { sentinel: { nodes: ['nope'] } } } }, storage: { redis: { a: { sentinel: { master_name: 'm' } } } } } }))].sort(), [
      "cache.backend.redis.sentinel.nodes: 'nope' is not host:port",
      'cache.backend.redis.sentinel.master_name: must name the master the sentinels monitor',
      'storage.redis.a.sentinel.nodes: must list the sentinels (host:port) to ask for m',
    ].sort());
  });

  it('returns a frozen config', () => {
    const c = loadConfig({});
    assert.ok(Object.isFrozen(c.cache.request_limits));
    assert.throws(() => {
      (c.server as { port: number }).port = 1;
    });
  });
});

describe('redactConfig', () => {
  it('hides secrets and URL passwords, keeps the rest', () => {
    const out = redactConfig({
      api: { 'api-key': 'k1', 'storage-path': '/storage' },
      storage: { redis: { app: { password: 'pw', host: 'h' } } },
      cache: { backend: { redis: { url: 'redis://user:hunter2@host:6379' } } },
      empty: { password: '' },
    }) as Record<string, Record<string, unknown>>;
    const text = JSON.stringify(out);
    assert.ok(!text.includes('k1') && !text.includes('hunter2') && !text.includes('"pw"'), text);
    assert.ok(text.includes('/storage') && text.includes('"host":"h"') && text.includes('redis://user:redacted@host:6379'));
    assert.deepEqual(out.empty, { password: '' });
  });
});
