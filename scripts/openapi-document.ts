// The text of docs/openapi.json: the OpenAPI document of the default configuration, pretty-printed.
// Shared by `npm run openapi` (scripts/openapi.ts) and the test that keeps the file current.
import { openApiOptions } from '../src/app.js';
import { loadConfig } from '../src/config/load.js';
import { buildOpenApiDocument } from '../src/http/openapi.js';

/** docs/openapi.json as the code generates it now. */
export const openApiDocumentText = (): string => `${JSON.stringify(buildOpenApiDocument(openApiOptions(loadConfig({ raw: {} }))), null, 2)}\n`;
