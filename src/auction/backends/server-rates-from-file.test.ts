import assert from 'node:assert/strict';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, it } from 'node:test';
import { setTimeout as sleep } from 'node:timers/promises';
import { silentLogger } from '../../core/logger.js';
import type { Logger } from '../../core/logger.js';
import { createPrometheusMetrics } from '../../metrics/prometheus.js';
import { createFileRatesSource } from './file-rates-source.js';
import { MAX_RATES_DOCUMENT_BYTES } from '../currency-rates.js';
import type { RatesSource } from '../currency-rates.js';
import { createServerRates } from '../server-rates.js';
import type { ServerRatesOptions } from '../server-rates.js';

const HOUR = 3_600_000;
const ratesText = (eur: number): string => JSON.stringify({ dataAsOf: '2024-03-01', conversions: { USD: { EUR: eur } } });

/** A rates file in a fresh folder; `write` replaces it. */
const ratesFile = () => {
  const path = join(mkdtempSync(join(tmpdir(), 'openbid-rates-')), 'rates.json');
  return { path, write: (text: string) => writeFileSync(path, text), remove: () => rmSync(path, { force: true }) };
};

/** A logger keeping each line as `level: message`. */
const recordingLogger = () => {
  const lines: string[] = [];
  const at =
    (level: string) =>
    (_obj: unknown, msg?: string): void =>
      void lines.push(`${level}: ${msg ?? ''}`);
  const logger: Logger = { ...silentLogger, error: at('error'), warn: at('warn'), info: at('info'), child: () => logger };
  return { logger, lines };
};

const setup = (source: RatesSource, o: Partial<ServerRatesOptions> = {}) => {
  const clock = { t: 1_700_000_000_000, now: () => clock.t };
  const { logger, lines } = recordingLogger();
  const metrics = createPrometheusMetrics({ processMetrics: false });
  const rates = createServerRates({ source, refreshIntervalMs: 60_000, readTimeoutMs: 1000, staleAfterMs: 24 * HOUR, clock, logger, metrics, ...o });
  const metricsText = async () => (await metrics.render()).body;
  return { rates, clock, lines, metricsText };
};

describe('server rates from a file', () => {
  it('has none before the first read, then the document’s rates', async () => {
    const file = ratesFile();
    file.write(ratesText(0.9));
    const { rates, lines, metricsText } = setup(createFileRatesSource(file.path));
    assert.equal(rates.current(), undefined);
    await rates.refresh();
    assert.deepEqual(rates.current(), { USD: { EUR: 0.9 } });
    assert.ok(lines.includes('info: server currency rates loaded'));
    const text = await metricsText();
    assert.match(text, /openbid_currency_rates_refreshes_total\{result="ok"\} 1\n/);
    assert.match(text, /openbid_currency_rates_last_update_timestamp_seconds 1700000000\n/);
    assert.match(text, /openbid_currency_rates_available 1\n/);
    await rates.close();
  });

  it('tells the admin listener its source, interval, last good read and rates, keeping the read time once stale', async () => {
    const file = ratesFile();
    file.write(ratesText(0.9));
    const { rates, clock } = setup(createFileRatesSource(file.path), { staleAfterMs: HOUR });
    assert.deepEqual(rates.info(), { source: file.path, refreshIntervalMs: 60_000, lastUpdatedMs: undefined, rates: undefined });
    await rates.refresh();
    const readAt = clock.t;
    assert.deepEqual(rates.info(), { source: file.path, refreshIntervalMs: 60_000, lastUpdatedMs: readAt, rates: { USD: { EUR: 0.9 } } });
    clock.t += HOUR + 1;
    assert.deepEqual(rates.info(), { source: file.path, refreshIntervalMs: 60_000, lastUpdatedMs: readAt, rates: undefined });
    await rates.close();
  });

  it('keeps the last good rates when the document turns bad, logging an error', async () => {
    const file = ratesFile();
    file.write(ratesText(0.9));
    const { rates, lines, metricsText } = setup(createFileRatesSource(file.path));
    await rates.refresh();
    for (const bad of ['{"conversions": ', '{"conversions": {"USD": {"EUR": -1}}}', '[]']) {
      file.write(bad);
      await rates.refresh();
      assert.deepEqual(rates.current(), { USD: { EUR: 0.9 } }, bad);
    }
    assert.equal(lines.filter((l) => l === 'error: the server currency rates document is invalid; the last good rates stay in use').length, 3);
    assert.match(await metricsText(), /openbid_currency_rates_refreshes_total\{result="invalid"\} 3\n/);
    file.write(ratesText(0.95));
    await rates.refresh();
    assert.deepEqual(rates.current(), { USD: { EUR: 0.95 } });
    await rates.close();
  });

  it('keeps the last good rates when the source cannot be read, logging a warning', async () => {
    const file = ratesFile();
    file.write(ratesText(0.9));
    const { rates, lines, metricsText } = setup(createFileRatesSource(file.path));
    await rates.refresh();
    file.remove();
    await rates.refresh();
    assert.deepEqual(rates.current(), { USD: { EUR: 0.9 } });
    assert.ok(lines.includes('warn: the server currency rates could not be read; the last good rates stay in use'));
    assert.match(await metricsText(), /openbid_currency_rates_refreshes_total\{result="unreadable"\} 1\n/);
    await rates.close();
  });

  it('refuses a file over the size limit: none loaded at first, then the last good rates stay', async () => {
    const file = ratesFile();
    // A good document but for its size: read whole, it would be taken.
    const oversized = (eur: number): string => ratesText(eur).padEnd(MAX_RATES_DOCUMENT_BYTES + 1, ' ');
    file.write(oversized(0.8));
    const { rates, lines, metricsText } = setup(createFileRatesSource(file.path));
    await rates.refresh();
    assert.equal(rates.current(), undefined);
    file.write(ratesText(0.9));
    await rates.refresh();
    file.write(oversized(0.8));
    await rates.refresh();
    assert.deepEqual(rates.current(), { USD: { EUR: 0.9 } });
    assert.equal(lines.filter((l) => l === 'warn: the server currency rates could not be read; the last good rates stay in use').length, 2);
    assert.match(await metricsText(), /openbid_currency_rates_refreshes_total\{result="unreadable"\} 2\n/);
    await rates.close();
  });

  it('drops rates not refreshed within stale_after_ms, once and logged, and takes fresh ones again', async () => {
    const file = ratesFile();
    file.write(ratesText(0.9));
    const { rates, clock, lines, metricsText } = setup(createFileRatesSource(file.path), { staleAfterMs: 24 * HOUR });
    await rates.refresh();
    file.remove();
    clock.t += 24 * HOUR;
    await rates.refresh();
    assert.deepEqual(rates.current(), { USD: { EUR: 0.9 } }, 'exactly the limit is not stale yet');
    clock.t += 1;
    assert.equal(rates.current(), undefined, 'dropped as soon as an auction asks');
    assert.equal(rates.current(), undefined);
    assert.equal(lines.filter((l) => l.startsWith('warn: the server currency rates were not refreshed within auction.currency.stale_after_ms')).length, 1);
    assert.match(await metricsText(), /openbid_currency_rates_available 0\n/);
    file.write(ratesText(0.8));
    await rates.refresh();
    assert.deepEqual(rates.current(), { USD: { EUR: 0.8 } });
    await rates.close();
  });

  it('drops stale rates at a failed refresh too, with no auction asking', async () => {
    const file = ratesFile();
    file.write(ratesText(0.9));
    const { rates, clock, lines } = setup(createFileRatesSource(file.path), { staleAfterMs: HOUR });
    await rates.refresh();
    file.remove();
    clock.t += 2 * HOUR;
    await rates.refresh();
    assert.ok(lines.some((l) => l.includes('stale_after_ms')));
    await rates.close();
  });

  it('never drops rates with stale_after_ms 0', async () => {
    const file = ratesFile();
    file.write(ratesText(0.9));
    const { rates, clock } = setup(createFileRatesSource(file.path), { staleAfterMs: 0 });
    await rates.refresh();
    clock.t += 365 * 24 * HOUR;
    assert.deepEqual(rates.current(), { USD: { EUR: 0.9 } });
    await rates.close();
  });

  it('re-reads the source every refresh interval after start, never two reads at once', async () => {
    const file = ratesFile();
    file.write(ratesText(0.9));
    const fileSource = createFileRatesSource(file.path);
    let reading = 0;
    let overlapped = false;
    let reads = 0;
    const slow: RatesSource = {
      name: fileSource.name,
      read: async (signal) => {
        overlapped ||= reading > 0;
        reading++;
        reads++;
        try {
          await sleep(30);
          return await fileSource.read(signal);
        } finally {
          reading--;
        }
      },
    };
    const { rates } = setup(slow, { refreshIntervalMs: 10 });
    await rates.start();
    assert.deepEqual(rates.current(), { USD: { EUR: 0.9 } }, 'start waits for the first read');
    file.write(ratesText(0.7));
    const until = Date.now() + 2000;
    while (rates.current()?.USD?.EUR !== 0.7 && Date.now() < until) await sleep(10);
    assert.deepEqual(rates.current(), { USD: { EUR: 0.7 } });
    await rates.close();
    const after = reads;
    await sleep(100);
    assert.equal(reads, after, 'no read after close');
    assert.equal(overlapped, false);
  });

  it('gives up a read after the read timeout, and close aborts one in flight', async () => {
    const hanging: RatesSource = {
      name: 'hanging',
      read: (signal) => new Promise((_resolve, reject) => signal.addEventListener('abort', () => reject(new Error('aborted')), { once: true })),
    };
    const timed = setup(hanging, { readTimeoutMs: 50 });
    const started = Date.now();
    await timed.rates.refresh();
    assert.ok(Date.now() - started < 1000);
    assert.match(await timed.metricsText(), /result="unreadable"\} 1/);
    await timed.rates.close();

    const closing = setup(hanging, { readTimeoutMs: 60_000 });
    const pending = closing.rates.refresh();
    await closing.rates.close();
    await pending;
    assert.equal(closing.rates.current(), undefined);
  });
});
