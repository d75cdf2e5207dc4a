/**
 * Keys under this prefix belong to module storage, which may share a Redis with `/cache`. The
 * cache refuses to write or read them, so the two can never see each other's entries.
 */
export const STORAGE_KEY_PREFIX = 'openbid-storage:';

export const isReservedKey = (key: string): boolean => key.startsWith(STORAGE_KEY_PREFIX);
