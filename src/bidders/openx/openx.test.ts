import { runAdapterFixtureDir } from '../../../test/support/adapter-fixtures.js';
import { openxAdapter } from './index.js';

runAdapterFixtureDir('test/fixtures/bidders/openx', openxAdapter);
