/**
 * Metrics port. Modules declare their instruments once, at construction; recording with labels
 * is a lookup of the label values, and `with` binds them once where they are fixed.
 *
 * Contract: every method is synchronous, cheap and never throws. Implementations are safe to call
 * from any request concurrently (Node is single-threaded per process).
 */
export interface Metrics {
  counter<L extends string>(def: InstrumentDef<L>): Counter<L>;
  histogram<L extends string>(def: InstrumentDef<L> & { buckets?: readonly number[] }): Histogram<L>;
  gauge<L extends string>(def: InstrumentDef<L>): Gauge<L>;
  /** The exposition text of every instrument, for `GET /metrics`. */
  render(): Promise<{ contentType: string; body: string }>;
}

export interface InstrumentDef<L extends string> {
  /** Full metric name, `openbid_` prefixed, snake_case, unit suffixed (`_seconds`, `_total`). */
  name: string;
  help: string;
  labelNames: readonly L[];
  /**
   * How a gauge's values from several cluster workers combine into one (`server.workers` > 1):
   * `sum` (the default, e.g. things held per worker), `min`, `max`, `average` or `first`.
   * Counters and histograms are always summed.
   */
  clusterAggregate?: ClusterAggregate;
}

export type ClusterAggregate = 'sum' | 'min' | 'max' | 'average' | 'first';

/**
 * One metric family as plain data, in the shape of prom-client's `getMetricsAsJSON()` (so
 * `AggregatorRegistry.aggregate` can combine the families of several workers). Histogram
 * values name their series (`_bucket` with an `le` label, `_sum`, `_count`) in `metricName`.
 */
export interface MetricFamilySnapshot {
  name: string;
  help: string;
  type: 'counter' | 'gauge' | 'histogram' | 'summary';
  aggregator: ClusterAggregate | 'omit';
  values: { value: number; labels: Record<string, string | number>; metricName?: string }[];
}

/** Metrics whose current values can be taken as data, to be sent to the cluster primary. */
export interface SnapshotMetrics extends Metrics {
  /** Every instrument's values now, process metrics included; never rejects for our own instruments. */
  snapshot(): Promise<MetricFamilySnapshot[]>;
}

export type Labels<L extends string> = Readonly<Record<L, string>>;

export interface BoundCounter {
  inc(value?: number): void;
}
export interface Counter<L extends string> {
  inc(labels: Labels<L>, value?: number): void;
  /** The counter with these label values fixed; keep it for hot paths. */
  with(labels: Labels<L>): BoundCounter;
}

export interface BoundHistogram {
  observe(value: number): void;
}
export interface Histogram<L extends string> {
  observe(labels: Labels<L>, value: number): void;
  with(labels: Labels<L>): BoundHistogram;
}

export interface Gauge<L extends string> {
  set(labels: Labels<L>, value: number): void;
  inc(labels: Labels<L>, value?: number): void;
  dec(labels: Labels<L>, value?: number): void;
}

/** Latency buckets in seconds, from sub-millisecond store calls up to slow auctions. */
export const LATENCY_BUCKETS_SECONDS: readonly number[] = [
  0.0005, 0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5,
];

/**
 * `counter` bound once for every pair of values of two of its labels (the other labels fixed to
 * `fixed`), as `grid[row][column]`: counting is then a property read, with no label key built per
 * call. For counters recorded on every request whose label values are known up front.
 */
export const boundGrid = <L extends string, R extends string, C extends string>(
  counter: Counter<L>,
  rowLabel: L,
  rows: readonly R[],
  columnLabel: L,
  columns: readonly C[],
  fixed: Partial<Labels<L>> = {},
): Record<R, Record<C, BoundCounter>> =>
  Object.fromEntries(
    rows.map((row) => [row, Object.fromEntries(columns.map((column) => [column, counter.with({ ...fixed, [rowLabel]: row, [columnLabel]: column } as Labels<L>)]))]),
  ) as Record<R, Record<C, BoundCounter>>;
