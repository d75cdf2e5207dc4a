import assert from 'node:assert/strict';
import { execFileSync, spawnSync } from 'node:child_process';
import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, it } from 'node:test';
import { startMockBidder } from '../support/mock-bidder.js';
import { startRedis } from '../support/redis.js';
import { startServerProcess } from '../support/server-process.js';

const RULES = new URL('../../deploy/prometheus/openbid-rules.yaml', import.meta.url).pathname;
const DASHBOARD = new URL('../../deploy/grafana/openbid-dashboard.json', import.meta.url).pathname;

/** promtool, from Debian's prometheus package, installed when missing (root, as on CI). */
const promtool = (): string => {
  if (spawnSync('sh', ['-c', 'command -v promtool'], { encoding: 'utf8' }).status !== 0) {
    execFileSync('sh', ['-c', 'apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq prometheus >/dev/null'], { stdio: 'inherit', timeout: 300_000 });
  }
  return 'promtool';
};

/** PromQL words that are not metric names: functions, aggregations, keywords, Grafana variables' neighbours. */
const NOT_METRICS = new Set([
  'sum', 'min', 'max', 'avg', 'count', 'by', 'without', 'and', 'or', 'unless', 'on', 'ignoring', 'group_left', 'group_right', 'bool', 'offset',
  'rate', 'irate', 'increase', 'histogram_quantile', 'time', 'abs', 'clamp_min', 'clamp_max', 'topk', 'bottomk', 'label_values', 'delta', 'deriv',
]);

/**
 * Metric names a PromQL expression uses: an identifier followed by `{` or `[`, or standing alone
 * where a series may (not a function call, keyword or label name inside `{…}`/`by (…)`).
 */
export const metricNames = (expr: string): string[] => {
  // Drop strings (label values, regexes) and what sits inside braces and by/without/on lists.
  const bare = expr
    .replace(/"(?:[^"\\]|\\.)*"|'(?:[^'\\]|\\.)*'/g, '""')
    .replace(/\{[^}]*\}/g, '{}')
    .replace(/\b(by|without|on|ignoring|group_left|group_right)\s*\([^)]*\)/g, ' ')
    .replace(/\[[^\]]*\]/g, '[]')
    .replace(/\$\{?\w+\}?/g, ' ');
  const names = new Set<string>();
  for (const m of bare.matchAll(/(?<![\w.])([a-zA-Z_:][\w:]*)(\s*\()?/g)) {
    const [, name, call] = m;
    if (name === undefined || call !== undefined || NOT_METRICS.has(name)) continue;
    if (/^\d/.test(name) || /^(e|inf|nan)$/i.test(name)) continue;
    names.add(name);
  }
  return [...names];
};

/** The metric family a sample name belongs to: histogram series named without their suffix. */
const family = (name: string): string => name.replace(/_(bucket|sum|count)$/, '');

const dashboardExprs = (): string[] => {
  const dashboard = JSON.parse(readFileSync(DASHBOARD, 'utf8')) as { panels: { targets?: { expr: string }[] }[] };
  return dashboard.panels.flatMap((p) => (p.targets ?? []).map((t) => t.expr));
};
const ruleExprs = (): string[] => [...readFileSync(RULES, 'utf8').matchAll(/^\s+expr: \|\n((?:\s{10,}.*\n)+)/gm)].map((m) => m[1] ?? '');

describe('deploy/: Prometheus rules and Grafana dashboard', () => {
  it('the metric-name parser finds names in selectors, ranges and calls, and nothing else', () => {
    assert.deepEqual(
      metricNames('histogram_quantile(0.99, sum by (route, le) (rate(a_b_bucket{route!~"/x.*",job=~"$job"}[5m]))) > 0.25 and on (job) c_total / d'),
      ['a_b_bucket', 'c_total', 'd'],
    );
    assert.deepEqual(metricNames('time() - x_seconds > 3 * 3600 or y == 0'), ['x_seconds', 'y']);
  });

  it('promtool accepts the rules', () => {
    const out = execFileSync(promtool(), ['check', 'rules', RULES], { encoding: 'utf8' });
    assert.match(out, /SUCCESS: [1-9]\d* rules found/);
  });

  it('every metric the dashboard and rules use is exported after a smoke run of every endpoint', async () => {
    const exprs = [...dashboardExprs(), ...ruleExprs()];
    assert.ok(dashboardExprs().length >= 15 && ruleExprs().length >= 6, `too few expressions found: ${exprs.length}`);
    const used = new Set(exprs.flatMap(metricNames).map(family));

    const redis = await startRedis();
    const bidder = await startMockBidder({ body: { id: 'r', seatbid: [{ bid: [{ id: 'b1', impid: 'imp-1', price: 1.5, adm: '<div/>', crid: 'c', w: 300, h: 250 }] }] } });
    const dir = mkdtempSync(join(tmpdir(), 'openbid-deploy-'));
    const rates = join(dir, 'rates.json');
    writeFileSync(rates, JSON.stringify({ dataAsOf: new Date().toISOString(), conversions: { USD: { EUR: 0.9 } } }));
    const server = await startServerProcess({
      cache: { backend: { type: 'redis', redis: { url: redis.url, timeout_ms: 2000 } } },
      auction: { currency: { file: rates } },
      adapters: { alpha: { adapter: 'generic', endpoint: bidder.url } },
    });
    try {
      const call = async (path: string, init: RequestInit = {}): Promise<string> => {
        const res = await fetch(`${server.baseUrl}${path}`, init);
        const text = await res.text();
        assert.ok(res.status < 500, `${path}: ${res.status} ${text}`);
        return text;
      };
      const json = (body: unknown): RequestInit => ({ method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify(body) });
      const put = JSON.parse(await call('/cache', json({ puts: [{ type: 'xml', value: '<VAST/>' }] }))) as { responses: { uuid: string }[] };
      await call(`/cache?uuid=${put.responses[0]?.uuid ?? ''}`);
      await call('/cache?uuid=00000000-0000-0000-0000-000000000000');
      await call('/storage', json({ key: 'k', value: 'v', application: 'app' }));
      await call('/storage?k=k&a=app');
      await call('/event?t=win&b=bid1&a=acc&ts=1&f=b&x=1');
      await call('/vtrack?a=acc&b=alpha', json({ puts: [{ bidid: 'b1', bidder: 'alpha', type: 'xml', value: '<VAST version="3.0"><Ad><Wrapper></Wrapper></Ad></VAST>' }] }));
      await call('/openrtb2/auction', json({ id: 'a', site: { page: 'https://news.example/' }, imp: [{ id: 'imp-1', banner: { format: [{ w: 300, h: 250 }] }, ext: { prebid: { bidder: { alpha: {} } } } }], tmax: 500 }));
      await call('/openrtb2/amp?tag_id=none&w=300&h=250');
      await call('/cookie_sync', json({ bidders: ['alpha'] }));
      await call('/setuid?bidder=alpha&uid=u1');
      const metrics = await fetch(`${server.adminUrl ?? assert.fail('no admin listener')}/metrics`);
      assert.equal(metrics.status, 200);
      const text = await metrics.text();
      const exported = new Set([...text.matchAll(/^# TYPE (\S+) /gm)].map((m) => m[1]));
      const missing = [...used].filter((n) => !exported.has(n));
      assert.deepEqual(missing, [], `used by deploy/ but not exported: ${missing.join(', ')}`);
      assert.ok(used.size >= 15, `only ${used.size} metric names found in deploy/`);
    } finally {
      server.proc.kill('SIGTERM');
      await server.exited;
      await Promise.all([bidder.close(), redis.stop()]);
    }
  });
});
