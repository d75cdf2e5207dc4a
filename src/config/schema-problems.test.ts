import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import Type from 'typebox';
import { Settings } from 'typebox/system';
import Value from 'typebox/value';
import { loadConfig } from './load.js';
import { schemaProblems } from './schema-problems.js';
import { problemsOf } from '../../test/support/config-problems.js';

const Small = Type.Object(
  {
    port: Type.Integer({ default: 8000 }),
    mode: Type.Enum(['a', 'b'], { default: 'a' }),
    level: Type.Union([Type.Literal(0), Type.Literal(1)], { default: 0 }),
    inner: Type.Object({ url: Type.String({ minLength: 1 }), api_key: Type.String({ default: '' }) }, { additionalProperties: false }),
  },
  { additionalProperties: false },
);

/** The problems of `doc` with the schema's defaults filled in, as the loader checks it. */
const problemsIn = (doc: Record<string, unknown>): { path: string; text: string }[] => schemaProblems(Small, Value.Default(Small, structuredClone(doc)));

/** `count` unknown keys `k0`…, beside `extra`. */
const withUnknownKeys = (count: number, extra: Record<string, unknown>): Record<string, unknown> => {
  const doc: Record<string, unknown> = { ...extra };
  for (let i = 0; i < count; i++) doc[`k${i}`] = i;
  return doc;
};

describe('schemaProblems', () => {
  it('lists every problem however many there are (TypeBox alone stops at 8, unknown keys first)', () => {
    const doc = Value.Default(Small, withUnknownKeys(20, { port: 'fast', inner: { url: 'x' } }));
    // The finding: TypeBox's own list holds 8 errors, all of them unknown keys' `false` schemas.
    const capped = Value.Errors(Small, doc);
    assert.equal(capped.length, 8);
    assert.ok(capped.every((e) => e.keyword === 'boolean'));

    const problems = schemaProblems(Small, doc).map((p) => p.text);
    assert.equal(problems.length, 21, problems.join('\n'));
    for (let i = 0; i < 20; i++) assert.ok(problems.includes(`k${i}: unknown key (value ${i})`), `k${i} missing`);
    assert.ok(problems.includes('port: must be integer (value "fast")'));
    // The cap is TypeBox's again afterwards.
    assert.equal(Settings.Get().maxErrors, 8);
  });

  it('gives each problem its path, value and, for an unknown key, the nearest valid key (a misspelt secret key hides its value)', () => {
    const problems = problemsIn({ port: 1, mode: 'c', level: 2, inner: { url: 'x', api_kee: 'hunter2', uri: 'y' }, prot: 2 });
    assert.deepEqual(
      problems.map((p) => [p.path, p.text]),
      [
        ['prot', 'prot: unknown key (value 2); did you mean port?'],
        ['mode', 'mode: must be one of a, b (value "c")'],
        ['level', 'level: must be one of 0, 1 (value 2)'],
        ['inner.api_kee', 'inner.api_kee: unknown key (value [redacted]); did you mean inner.api_key?'],
        ['inner.uri', 'inner.uri: unknown key (value "y"); did you mean inner.url?'],
      ],
    );
  });

  it('names a missing key, and cuts a long value', () => {
    assert.deepEqual(problemsIn({ port: 1, inner: {} }).map((p) => p.text), ['inner.url: required']);
    const [long] = problemsIn({ port: 'x'.repeat(500), inner: { url: 'x' } }).map((p) => p.text);
    assert.ok(long !== undefined && long.length < 120 && long.endsWith('…)'), long);
  });

  it('finds nothing in a valid document', () => {
    assert.deepEqual(problemsIn({ port: 1, mode: 'a', level: 0, inner: { url: 'x', api_key: '' } }), []);
  });
});

describe('loadConfig with many unknown keys', () => {
  it('refuses eight unknown keys and a wrong value, listing all nine (the server started on the defaults)', () => {
    const problems = problemsOf(() => loadConfig({ raw: withUnknownKeys(8, { auction: { default_timeout_ms: 'fast' } }) }));
    assert.equal(problems.length, 9, problems.join('\n'));
    assert.ok(problems.includes('auction.default_timeout_ms: must be integer (value "fast")'));
  });

  it('refuses a pasted Prebid Server config, pointing each key to its place here', () => {
    const problems = problemsOf(() =>
      loadConfig({
        raw: { port: 8080, external_url: 'https://pbs.example', host: '0.0.0.0', admin_port: 6060, gdpr: { enabled: true }, ccpa: { enforce: true }, lmt: { enforce: true }, account_required: true },
      }),
    );
    assert.deepEqual(problems, [
      'port: unknown key (value 8080); did you mean server.port?',
      'external_url: unknown key (value "https://pbs.example"); did you mean server.external_url?',
      'host: unknown key (value "0.0.0.0"); did you mean server.host?',
      'admin_port: unknown key (value 6060); did you mean server.admin_port?',
      'gdpr: unknown key (value {"enabled":true}); did you mean privacy.gdpr or accounts.defaults.privacy.gdpr?',
      'ccpa: unknown key (value {"enforce":true}); did you mean privacy.ccpa or accounts.defaults.privacy.ccpa?',
      'lmt: unknown key (value {"enforce":true}); did you mean privacy.lmt?',
      'account_required: unknown key (value true); did you mean accounts.required?',
    ]);
  });

  it('checks values set by environment variables the same way, naming the variable', () => {
    const problems = problemsOf(() =>
      loadConfig({
        raw: withUnknownKeys(10, {}),
        env: { OPENBID_AUCTION__DEFAULT_TIMEOUT_MS: 'fast', OPENBID_SERVER__PROT: '9000' },
      }),
    );
    assert.equal(problems.length, 12, problems.join('\n'));
    assert.ok(problems.includes('OPENBID_SERVER__PROT: no configuration key server.prot; did you mean OPENBID_SERVER__PORT?'));
    assert.ok(problems.includes('auction.default_timeout_ms: must be integer (value "fast") (set by OPENBID_AUCTION__DEFAULT_TIMEOUT_MS)'));
  });

  it('never shows a secret, in a known or an unknown key', () => {
    const problems = problemsOf(() =>
      loadConfig({ raw: { api: { 'api-key': ['s3cret'] }, recaptcha_secret: 's3cret', stored_requests: { postgres: { conection_string: 'postgres://u:s3cret@db/x' } } } }),
    );
    assert.equal(problems.length, 3, problems.join('\n'));
    for (const p of problems) assert.ok(!p.includes('s3cret'), p);
  });
});
