import { filesystemBackend } from './filesystem-backend.js';
import { httpBackend } from './http-backend.js';
import { postgresBackend } from './postgres-backend.js';
import type { SourceName, StoredBackendFactory } from './stored-backend.js';

/**
 * The stored data sources this build ships, by the name `stored_requests.order` uses. Adding one
 * is its file here, its name in `SourceName` (and the schema's `order`), its keys in the
 * sections, and one line below. A null-prototype record, so `constructor` is never a source.
 */
export const BUILTIN_STORED_BACKENDS: Readonly<Record<SourceName, StoredBackendFactory>> = Object.assign(Object.create(null) as Record<SourceName, StoredBackendFactory>, {
  filesystem: filesystemBackend,
  postgres: postgresBackend,
  http: httpBackend,
});

