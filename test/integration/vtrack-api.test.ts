import { runFixtureDir } from '../support/fixtures.js';

runFixtureDir(new URL('../fixtures/vtrack', import.meta.url).pathname);
