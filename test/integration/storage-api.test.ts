import { runFixtureDir } from '../support/fixtures.js';

runFixtureDir(new URL('../fixtures/storage', import.meta.url).pathname);
