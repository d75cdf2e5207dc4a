import { runFixtureDir } from '../support/fixtures.js';

runFixtureDir(new URL('../fixtures/auction', import.meta.url).pathname);
