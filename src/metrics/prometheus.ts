import { Registry, collectDefaultMetrics } from 'prom-client';
import { LATENCY_BUCKETS_SECONDS } from './metrics.js';
import type { BoundCounter, BoundHistogram, Counter, Gauge, Histogram, InstrumentDef, Labels, MetricFamilySnapshot, SnapshotMetrics } from './metrics.js';

/**
 * Prometheus metrics. Our own instruments are plain numeric cells, one per label combination,
 * rendered to the text exposition format at scrape time: recording on a bound instrument is one
 * addition. (prom-client re-hashes and re-validates labels on every call, even on a bound child,
 * which showed up in request profiles.) prom-client still supplies the process metrics (CPU,
 * memory, event-loop lag, GC) on a registry of its own, never the global one, so several apps in
 * one process (tests) do not collide. Declaring a name twice returns the first instrument.
 * `snapshot` gives the same values as data, for the cluster primary to add up (`cluster.ts`).
 */
export const createPrometheusMetrics = (opts: { processMetrics?: boolean } = {}): SnapshotMetrics => {
  const registry = new Registry();
  const processMetrics = opts.processMetrics ?? true;
  if (processMetrics) collectDefaultMetrics({ register: registry, prefix: 'openbid_' });
  const instruments = new Map<string, Made<unknown>>();

  const once = <T>(name: string, make: () => Made<T>): T => {
    let found = instruments.get(name);
    if (found === undefined) {
      found = make();
      instruments.set(name, found);
    }
    return found.instrument as T;
  };

  return {
    counter: <L extends string>(def: InstrumentDef<L>): Counter<L> => once(def.name, () => makeScalar(def, 'counter')),
    gauge: <L extends string>(def: InstrumentDef<L>): Gauge<L> => once(def.name, () => makeScalar(def, 'gauge')),
    histogram: <L extends string>(def: InstrumentDef<L> & { buckets?: readonly number[] }): Histogram<L> =>
      once(def.name, () => makeHistogram(def, def.buckets ?? LATENCY_BUCKETS_SECONDS)),
    render: async () => {
      const own = [...instruments.values()].map((i) => i.render()).join('');
      return { contentType: registry.contentType, body: own + (processMetrics ? await registry.metrics() : '') };
    },
    snapshot: async () => {
      const own = [...instruments.values()].map((i) => i.snapshot());
      if (!processMetrics) return own;
      // prom-client's MetricType enum holds the same strings as our union.
      return [...own, ...((await registry.getMetricsAsJSON()) as unknown as MetricFamilySnapshot[])];
    },
  };
};

/** An instrument with its text and data renderings. */
interface Made<T> {
  instrument: T;
  render: () => string;
  snapshot: () => MetricFamilySnapshot;
}

/** Cells keyed by their label values, in label-name order. */
const cellsFor = <L extends string, C>(def: InstrumentDef<L>, make: () => C) => {
  const cells = new Map<string, { labels: string; values: Record<string, string>; cell: C }>();
  return {
    cells,
    get: (labels: Labels<L>): C => {
      // Called on every labelled record: the key is built without intermediate arrays.
      let key = '';
      for (const n of def.labelNames) key += `${labels[n]}\u0000`;
      let entry = cells.get(key);
      if (entry === undefined) {
        const values = Object.fromEntries(def.labelNames.map((n) => [n, labels[n]]));
        entry = { labels: def.labelNames.map((n) => `${n}="${escapeLabel(labels[n])}"`).join(','), values, cell: make() };
        cells.set(key, entry);
      }
      return entry.cell;
    },
  };
};

const header = (name: string, help: string, type: string): string => `# HELP ${name} ${help.replaceAll('\\', '\\\\').replaceAll('\n', '\\n')}\n# TYPE ${name} ${type}\n`;

const makeScalar = <L extends string>(def: InstrumentDef<L>, type: 'counter' | 'gauge'): Made<Gauge<L> & Counter<L>> => {
  const { cells, get } = cellsFor(def, () => ({ value: 0 }));
  const instrument = {
    inc: (labels: Labels<L>, value = 1) => void (get(labels).value += value),
    dec: (labels: Labels<L>, value = 1) => void (get(labels).value -= value),
    set: (labels: Labels<L>, value: number) => void (get(labels).value = value),
    with: (labels: Labels<L>): BoundCounter => {
      const cell = get(labels);
      return { inc: (value = 1) => void (cell.value += value) };
    },
  };
  const render = (): string => {
    let out = header(def.name, def.help, type);
    for (const { labels, cell } of cells.values()) out += `${def.name}${labels ? `{${labels}}` : ''} ${formatNumber(cell.value)}\n`;
    return out;
  };
  const snapshot = (): MetricFamilySnapshot => ({
    name: def.name,
    help: def.help,
    type,
    aggregator: type === 'gauge' ? (def.clusterAggregate ?? 'sum') : 'sum',
    values: [...cells.values()].map(({ values, cell }) => ({ value: cell.value, labels: values })),
  });
  return { instrument, render, snapshot };
};

const makeHistogram = <L extends string>(def: InstrumentDef<L>, buckets: readonly number[]): Made<Histogram<L>> => {
  const bounds = [...buckets].sort((a, b) => a - b);
  const { cells, get } = cellsFor(def, () => ({ counts: new Float64Array(bounds.length), sum: 0, count: 0 }));
  const record = (cell: { counts: Float64Array; sum: number; count: number }, value: number): void => {
    // Counts are per bucket here and made cumulative when rendered.
    for (let i = 0; i < bounds.length; i++) {
      if (value <= (bounds[i] as number)) {
        (cell.counts[i] as number)++;
        break;
      }
    }
    cell.sum += value;
    cell.count++;
  };
  const instrument = {
    observe: (labels: Labels<L>, value: number) => record(get(labels), value),
    with: (labels: Labels<L>): BoundHistogram => {
      const cell = get(labels);
      return { observe: (value: number) => record(cell, value) };
    },
  };
  const render = (): string => {
    let out = header(def.name, def.help, 'histogram');
    for (const { labels, cell } of cells.values()) {
      const sep = labels ? ',' : '';
      let cumulative = 0;
      bounds.forEach((bound, i) => {
        cumulative += cell.counts[i] as number;
        out += `${def.name}_bucket{le="${formatNumber(bound)}"${sep}${labels}} ${cumulative}\n`;
      });
      out += `${def.name}_bucket{le="+Inf"${sep}${labels}} ${cell.count}\n`;
      out += `${def.name}_sum${labels ? `{${labels}}` : ''} ${formatNumber(cell.sum)}\n`;
      out += `${def.name}_count${labels ? `{${labels}}` : ''} ${cell.count}\n`;
    }
    return out;
  };
  // prom-client's own shape: numeric `le` for finite bounds, '+Inf' for the last.
  const snapshot = (): MetricFamilySnapshot => ({
    name: def.name,
    help: def.help,
    type: 'histogram',
    aggregator: 'sum',
    values: [...cells.values()].flatMap(({ values, cell }) => {
      let cumulative = 0;
      return [
        ...bounds.map((le, i) => {
          cumulative += cell.counts[i] as number;
          return { value: cumulative, labels: { le, ...values }, metricName: `${def.name}_bucket` };
        }),
        { value: cell.count, labels: { le: '+Inf', ...values }, metricName: `${def.name}_bucket` },
        { value: cell.sum, labels: values, metricName: `${def.name}_sum` },
        { value: cell.count, labels: values, metricName: `${def.name}_count` },
      ];
    }),
  });
  return { instrument, render, snapshot };
};

const escapeLabel = (v: string): string => v.replaceAll('\\', '\\\\').replaceAll('"', '\\"').replaceAll('\n', '\\n');

const formatNumber = (n: number): string => (Number.isFinite(n) ? String(n) : n > 0 ? '+Inf' : n < 0 ? '-Inf' : 'NaN');
