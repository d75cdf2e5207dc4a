import { randomUUID } from 'node:crypto';

/** Source of fresh identifiers, injected so tests can make them predictable. */
export interface IdGenerator {
  /** A new RFC 4122 version 4 UUID in its 36-character textual form. */
  uuid(): string;
}

// randomUUID keeps an internal entropy pool, so it is far cheaper than hand-rolling from randomBytes.
export const randomIds: IdGenerator = { uuid: () => randomUUID() };

/** Deterministic ids for tests: 00000000-0000-4000-8000-000000000001, ...002 and so on. */
export const sequentialIds = (start = 1): IdGenerator => {
  let next = start;
  return {
    uuid: () => `00000000-0000-4000-8000-${(next++).toString(16).padStart(12, '0')}`,
  };
};
