import type { SnapshotMetrics } from './metrics.js';

const nothing = (): void => undefined;
const boundCounter = { inc: nothing };
const boundHistogram = { observe: nothing };

/** Metrics that record nothing: for `metrics.enabled: false` and unit tests. */
export const noopMetrics: SnapshotMetrics = {
  counter: () => ({ inc: nothing, with: () => boundCounter }),
  histogram: () => ({ observe: nothing, with: () => boundHistogram }),
  gauge: () => ({ set: nothing, inc: nothing, dec: nothing }),
  render: () => Promise.resolve({ contentType: 'text/plain; version=0.0.4; charset=utf-8', body: '' }),
  snapshot: () => Promise.resolve([]),
};
