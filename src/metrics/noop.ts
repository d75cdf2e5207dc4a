import type { Metrics } from './metrics.js';

const nothing = (): void => undefined;
const boundCounter = { inc: nothing };
const boundHistogram = { observe: nothing };

/** Metrics that record nothing: for `metrics.enabled: false` and unit tests. */
export const noopMetrics: Metrics = {
  counter: () => ({ inc: nothing, with: () => boundCounter }),
  histogram: () => ({ observe: nothing, with: () => boundHistogram }),
  gauge: () => ({ set: nothing, inc: nothing, dec: nothing }),
  render: () => Promise.resolve({ contentType: 'text/plain; version=0.0.4; charset=utf-8', body: '' }),
};
