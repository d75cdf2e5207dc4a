import type { App, AppOverrides } from '../../src/app.js';
import { createApp } from '../../src/app.js';
import { loadConfig } from '../../src/config/load.js';
import type { Config } from '../../src/config/schema.js';
import { sequentialIds } from '../../src/core/ids.js';
import { silentLogger } from '../../src/core/logger.js';

export interface TestApp extends App {
  readonly config: Config;
}

/**
 * An app on the embedded defaults merged with `raw` (the same shape as a config file), with a
 * silent logger and predictable ids unless overridden. Close it with `app.close()`.
 */
export const buildTestApp = async (raw: Record<string, unknown> = {}, overrides: AppOverrides = {}): Promise<TestApp> => {
  const config = loadConfig({ raw });
  const app = await createApp(config, { logger: silentLogger, ids: sequentialIds(), ...overrides });
  return Object.assign(app, { config });
};
