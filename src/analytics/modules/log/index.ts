import type { AnalyticsModuleFactory } from '../../module-factory.js';
import { createLogModule } from './log-module.js';

/** `analytics.log`, as the configuration has it. */
export interface LogAnalyticsSection {
  readonly enabled: boolean;
}

/** `log`: each record in the server log at info level, when enabled. */
export const logAnalytics: AnalyticsModuleFactory<LogAnalyticsSection> = async (section, { logger, counters }) =>
  section.enabled ? createLogModule({ logger: logger.child({ component: 'analytics' }), counters }) : undefined;
