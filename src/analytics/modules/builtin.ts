import type { AnalyticsModuleRegistry } from '../module-factory.js';
import { fileAnalytics } from './file/index.js';
import type { FileAnalyticsSection } from './file/index.js';
import { httpAnalytics } from './http/index.js';
import type { HttpAnalyticsSection } from './http/index.js';
import { logAnalytics } from './log/index.js';
import type { LogAnalyticsSection } from './log/index.js';

/** The `analytics` configuration section: one key per built-in module. */
export interface BuiltinAnalyticsSections {
  readonly file: FileAnalyticsSection;
  readonly http: HttpAnalyticsSection;
  readonly log: LogAnalyticsSection;
}

/**
 * The analytics modules this build ships, by their key under `analytics` (also their `module`
 * label in `openbid_analytics_records_total`), opened in this order. Adding one is its folder
 * under `modules/`, its section here and in the schema, and one line below. A null-prototype
 * record, so `constructor` is never a module.
 */
export const BUILTIN_ANALYTICS_MODULES: AnalyticsModuleRegistry<BuiltinAnalyticsSections> = Object.assign(
  Object.create(null) as AnalyticsModuleRegistry<BuiltinAnalyticsSections>,
  {
    file: fileAnalytics,
    http: httpAnalytics,
    log: logAnalytics,
  },
);
