import { runFixtureDir } from '../support/fixtures.js';

runFixtureDir(new URL('../fixtures/cache', import.meta.url).pathname);
