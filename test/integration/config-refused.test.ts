import assert from 'node:assert/strict';
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, it } from 'node:test';
import { runCli } from '../support/server-process.js';

/**
 * A Prebid Server config pasted as a new user would (its keys at the top level, where openbid has
 * sections), and one wrong value among them: twenty unknown keys, each with its value and, where
 * openbid has the setting under another path, that path.
 */
const PASTED_PBS_CONFIG = `
port: 8080
admin_port: 6060
host: 0.0.0.0
external_url: https://pbs.example.com
status_response: ok
enable_gzip: true
account_required: true
auction_timeouts_ms:
  default: 500
  max: 1500
max_request_size: 524288
recaptcha_secret: do-not-show-me
currency_converter:
  fetch_url: https://cdn.jsdelivr.net/gh/prebid/currency-file@1/latest.json
gdpr:
  enabled: true
  host_vendor_id: 1234
ccpa:
  enforce: true
lmt:
  enforce: true
http_client:
  max_connections_per_host: 100
stored_amp_req:
  filesystem:
    enabled: true
category_mapping:
  filesystem:
    enabled: false
datacache:
  type: none
event:
  timeout_ms: 1000
vtrack:
  timeout_ms: 1000
auction:
  default_timeout_ms: fast
`;

/** Each problem expected, as the start of its line. */
const EXPECTED = [
  'port: unknown key (value 8080); did you mean server.port?',
  'admin_port: unknown key (value 6060); did you mean server.admin_port?',
  'host: unknown key (value "0.0.0.0"); did you mean server.host?',
  'external_url: unknown key (value "https://pbs.example.com"); did you mean server.external_url?',
  'status_response: unknown key (value "ok")',
  'enable_gzip: unknown key (value true)',
  'account_required: unknown key (value true); did you mean accounts.required?',
  'auction_timeouts_ms: unknown key (value {"default":500,"max":1500}); did you mean auction.default_timeout_ms or auction.max_timeout_ms?',
  'max_request_size: unknown key (value 524288); did you mean auction.max_request_bytes?',
  'recaptcha_secret: unknown key (value [redacted]); did you mean user_sync.recaptcha.secret?',
  'currency_converter: unknown key (value {"fetch_url":"https://cdn.jsdelivr.net/gh/prebid/currency-file@1/latest.json"}); did you mean auction.currency?',
  'gdpr: unknown key (value {"enabled":true,"host_vendor_id":1234}); did you mean privacy.gdpr',
  'ccpa: unknown key (value {"enforce":true}); did you mean privacy.ccpa',
  'lmt: unknown key (value {"enforce":true}); did you mean privacy.lmt?',
  'http_client: unknown key (value {"max_connections_per_host":100}); did you mean auction.max_connections_per_host?',
  'stored_amp_req: unknown key (value {"filesystem":{"enabled":true}}); did you mean stored_requests?',
  'category_mapping: unknown key (value {"filesystem":{"enabled":false}})',
  'datacache: unknown key (value {"type":"none"})',
  'event: unknown key (value {"timeout_ms":1000})',
  'vtrack: unknown key (value {"timeout_ms":1000})',
  'auction.default_timeout_ms: must be integer (value "fast")',
];

describe('a refused configuration at start', () => {
  it('a pasted Prebid Server config with 20 unknown keys and one wrong value exits 1 listing all 21, each with its value and nearest key', async () => {
    const file = join(mkdtempSync(join(tmpdir(), 'openbid-pasted-')), 'pbs.yaml');
    writeFileSync(file, PASTED_PBS_CONFIG);
    // Port 0 on loopback: were the config taken, the server would listen somewhere harmless.
    const run = runCli(['--config', file], { OPENBID_SERVER__HOST: '127.0.0.1', OPENBID_SERVER__PORT: '0' });
    const started = new Promise<string>((resolve) => {
      run.proc.stdout?.on('data', () => {
        if (run.output().includes(' listening on ')) resolve('started');
      });
    });
    const timeout = new Promise<string>((resolve) => setTimeout(() => resolve('timed out'), 30_000).unref());
    try {
      const outcome = await Promise.race([run.exited, started, timeout]);
      assert.equal(outcome, 1, `expected exit code 1, got ${String(outcome)}:\n${run.output()}`);
    } finally {
      run.proc.kill('SIGKILL');
    }
    const lines = run
      .output()
      .split('\n')
      .filter((l) => l.startsWith('  - '))
      .map((l) => l.slice(4));
    assert.equal(lines.length, 21, run.output());
    for (const [i, expected] of EXPECTED.entries()) assert.ok(lines[i]?.startsWith(expected), `line ${i}: expected "${expected}…", got "${lines[i]}"`);
    assert.ok(!run.output().includes('do-not-show-me'), 'a secret was shown');
  });
});
