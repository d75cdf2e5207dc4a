import type { MetricFamilySnapshot } from './metrics.js';

/**
 * The IPC messages of cluster-wide metrics. A worker's `/metrics` asks the primary
 * (`request`); the primary asks every worker for its values (`collect`), each answers
 * (`collected`), and the primary sends the sum back to the one that asked (`aggregate`, or
 * `failed`). Ids pair answers with questions; `kind` is namespaced so other IPC traffic (e.g.
 * prom-client's own) is never mistaken for ours.
 */
export type ClusterMetricsMessage =
  | { kind: 'openbid:metrics:request'; id: number }
  | { kind: 'openbid:metrics:collect'; id: number }
  | { kind: 'openbid:metrics:collected'; id: number; families: MetricFamilySnapshot[] }
  | { kind: 'openbid:metrics:aggregate'; id: number; contentType: string; body: string }
  | { kind: 'openbid:metrics:failed'; id: number; error: string };

/** The message if `value` is one of ours, else undefined (IPC carries anything). */
export const asClusterMetricsMessage = (value: unknown): ClusterMetricsMessage | undefined => {
  if (typeof value !== 'object' || value === null) return undefined;
  const { kind, id } = value as { kind?: unknown; id?: unknown };
  return typeof kind === 'string' && kind.startsWith('openbid:metrics:') && typeof id === 'number' ? (value as ClusterMetricsMessage) : undefined;
};
