import assert from 'node:assert/strict';
import { ConfigError } from '../../src/config/load.js';

/** The problems a configuration step reports: fails the test when it throws no `ConfigError`. */
export const problemsOf = (fn: () => unknown): readonly string[] => {
  try {
    fn();
  } catch (err) {
    if (err instanceof ConfigError) return err.problems;
    throw err;
  }
  assert.fail('expected a ConfigError');
};
