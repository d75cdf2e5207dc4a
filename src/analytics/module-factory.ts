import type { Logger } from '../core/logger.js';
import type { Metrics } from '../metrics/metrics.js';
import type { AnalyticsModule, RecordCounters } from './analytics-module.js';
import { recordCounters } from './runner.js';

/** Plain collaborators every analytics module factory gets. */
export interface AnalyticsModuleDeps {
  /** The server's logger; a module takes a child with its own `component`. */
  readonly logger: Logger;
  /** `openbid_analytics_records_total`, bound to the module's registry name. */
  readonly counters: RecordCounters;
  /** `server.shutdown_timeout_ms`: the whole shutdown's budget, of which `close` may take a share. */
  readonly shutdownTimeoutMs: number;
}

/**
 * Opens one module from its configuration section (`analytics.<name>`). Answers undefined when
 * the section leaves the module off; may reject for a section it cannot work with (start-up then
 * fails with that error, e.g. a file that cannot be opened).
 */
export type AnalyticsModuleFactory<Section> = (section: Section, deps: AnalyticsModuleDeps) => Promise<AnalyticsModule | undefined>;

/** Modules by configuration name, each a factory of its own section's shape. */
export type AnalyticsModuleRegistry<Sections> = { readonly [N in keyof Sections]: AnalyticsModuleFactory<Sections[N]> };

/**
 * Opens every module of `registry` its section turns on, in the registry's order. A section no
 * module is registered for (own entries only: `constructor` is not one) is refused with its name.
 */
export const openAnalyticsModules = async <Sections extends object>(
  sections: Sections,
  registry: AnalyticsModuleRegistry<Sections>,
  deps: { readonly logger: Logger; readonly metrics: Metrics; readonly shutdownTimeoutMs: number },
): Promise<AnalyticsModule[]> => {
  for (const name of Object.keys(sections)) {
    if (!Object.hasOwn(registry, name)) throw new Error(`analytics.${name}: no analytics module is named "${name}"`);
  }
  const modules: AnalyticsModule[] = [];
  for (const name of Object.keys(registry) as (keyof Sections & string)[]) {
    const section = sections[name];
    if (section === undefined) continue;
    const module = await registry[name](section, { logger: deps.logger, counters: recordCounters(deps.metrics, name), shutdownTimeoutMs: deps.shutdownTimeoutMs });
    if (module !== undefined) modules.push(module);
  }
  return modules;
};
