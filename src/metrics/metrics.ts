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
