import { runFixtureDir } from '../support/fixtures.js';

runFixtureDir(new URL('../fixtures/amp', import.meta.url).pathname);
