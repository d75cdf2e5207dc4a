import { Counter as PromCounter, Gauge as PromGauge, Histogram as PromHistogram, Registry, collectDefaultMetrics } from 'prom-client';
import { LATENCY_BUCKETS_SECONDS } from './metrics.js';
import type { BoundCounter, BoundHistogram, Counter, Gauge, Histogram, InstrumentDef, Labels, Metrics } from './metrics.js';

/**
 * Prometheus metrics on a registry of their own (never prom-client's global one, so that several
 * apps in one process, as in tests, do not collide). Declaring the same name twice returns the
 * first instrument, so modules built twice share it.
 */
export const createPrometheusMetrics = (opts: { processMetrics?: boolean } = {}): Metrics => {
  const registry = new Registry();
  if (opts.processMetrics ?? true) collectDefaultMetrics({ register: registry, prefix: 'openbid_' });
  const instruments = new Map<string, unknown>();

  const once = <T>(name: string, make: () => T): T => {
    let found = instruments.get(name) as T | undefined;
    if (found === undefined) {
      found = make();
      instruments.set(name, found);
    }
    return found;
  };

  return {
    counter: <L extends string>(def: InstrumentDef<L>): Counter<L> =>
      once(def.name, () => {
        const c = new PromCounter<L>({ name: def.name, help: def.help, labelNames: def.labelNames, registers: [registry] });
        return {
          inc: (labels: Labels<L>, value = 1) => c.inc(labels, value),
          with: (labels: Labels<L>): BoundCounter => {
            const child = c.labels(labels);
            return { inc: (value = 1) => child.inc(value) };
          },
        };
      }),
    histogram: <L extends string>(def: InstrumentDef<L> & { buckets?: readonly number[] }): Histogram<L> =>
      once(def.name, () => {
        const h = new PromHistogram<L>({
          name: def.name,
          help: def.help,
          labelNames: def.labelNames,
          buckets: [...(def.buckets ?? LATENCY_BUCKETS_SECONDS)],
          registers: [registry],
        });
        return {
          observe: (labels: Labels<L>, value: number) => h.observe(labels, value),
          with: (labels: Labels<L>): BoundHistogram => {
            const child = h.labels(labels);
            return { observe: (value: number) => child.observe(value) };
          },
        };
      }),
    gauge: <L extends string>(def: InstrumentDef<L>): Gauge<L> =>
      once(def.name, () => {
        const g = new PromGauge<L>({ name: def.name, help: def.help, labelNames: def.labelNames, registers: [registry] });
        return {
          set: (labels: Labels<L>, value: number) => g.set(labels, value),
          inc: (labels: Labels<L>, value = 1) => g.inc(labels, value),
          dec: (labels: Labels<L>, value = 1) => g.dec(labels, value),
        };
      }),
    render: async () => ({ contentType: registry.contentType, body: await registry.metrics() }),
  };
};
