import { Registry, collectDefaultMetrics } from 'prom-client';
import { LATENCY_BUCKETS_SECONDS } from './metrics.js';
import type { BoundCounter, BoundHistogram, Counter, Gauge, Histogram, InstrumentDef, Labels, Metrics } from './metrics.js';

/**
 * Prometheus metrics. Our own instruments are plain numeric cells, one per label combination,
 * rendered to the text exposition format at scrape time: recording on a bound instrument is one
 * addition. (prom-client re-hashes and re-validates labels on every call, even on a bound child,
 * which showed up in request profiles.) prom-client still supplies the process metrics (CPU,
 * memory, event-loop lag, GC) on a registry of its own, never the global one, so several apps in
 * one process (tests) do not collide. Declaring a name twice returns the first instrument.
 */
export const createPrometheusMetrics = (opts: { processMetrics?: boolean } = {}): Metrics => {
  const registry = new Registry();
  const processMetrics = opts.processMetrics ?? true;
  if (processMetrics) collectDefaultMetrics({ register: registry, prefix: 'openbid_' });
  const instruments = new Map<string, { instrument: unknown; render: () => string }>();

  const once = <T>(name: string, make: () => { instrument: T; render: () => string }): T => {
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
  };
};

/** Cells keyed by their label values, in label-name order. */
const cellsFor = <L extends string, C>(def: InstrumentDef<L>, make: () => C) => {
  const cells = new Map<string, { labels: string; cell: C }>();
  return {
    cells,
    get: (labels: Labels<L>): C => {
      // Called on every labelled record: the key is built without intermediate arrays.
      let key = '';
      for (const n of def.labelNames) key += `${labels[n]}\u0000`;
      let entry = cells.get(key);
      if (entry === undefined) {
        entry = { labels: def.labelNames.map((n) => `${n}="${escapeLabel(labels[n])}"`).join(','), cell: make() };
        cells.set(key, entry);
      }
      return entry.cell;
    },
  };
};

const header = (name: string, help: string, type: string): string => `# HELP ${name} ${help.replaceAll('\\', '\\\\').replaceAll('\n', '\\n')}\n# TYPE ${name} ${type}\n`;

const makeScalar = <L extends string>(def: InstrumentDef<L>, type: 'counter' | 'gauge') => {
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
  return { instrument, render };
};

const makeHistogram = <L extends string>(def: InstrumentDef<L>, buckets: readonly number[]) => {
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
  return { instrument, render };
};

const escapeLabel = (v: string): string => v.replaceAll('\\', '\\\\').replaceAll('"', '\\"').replaceAll('\n', '\\n');

const formatNumber = (n: number): string => (Number.isFinite(n) ? String(n) : n > 0 ? '+Inf' : n < 0 ? '-Inf' : 'NaN');
