// `npm run openapi`: writes docs/openapi.json, the OpenAPI document of the default configuration
// (src/http/openapi.ts). src/http/openapi.test.ts fails when the committed file differs.
import { writeFileSync } from 'node:fs';
import { openApiDocumentText } from './openapi-document.js';

writeFileSync(new URL('../docs/openapi.json', import.meta.url), openApiDocumentText());
