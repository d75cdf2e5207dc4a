import { runFixtureDir } from '../support/fixtures.js';

runFixtureDir(new URL('../fixtures/event', import.meta.url).pathname);
