import { bytesFrom, startsWithAscii } from '../core/bytes.js';
import type { Bytes } from '../core/bytes.js';

/** The two kinds of value `/cache` keeps. */
export type ValueType = 'xml' | 'json';

export const CONTENT_TYPES: Readonly<Record<ValueType, string>> = {
  xml: 'application/xml',
  json: 'application/json',
};

// Prebid Cache (Go) prefixes each stored value with its type name; doing the same lets an openbid
// and a Prebid Cache read each other's entries from one Redis (with its compression set to none).
const PREFIX_XML = Buffer.from('xml' satisfies ValueType);
const PREFIX_JSON = Buffer.from('json' satisfies ValueType);
const prefixOf = (type: ValueType): Buffer => (type === 'xml' ? PREFIX_XML : PREFIX_JSON);

/**
 * The stored form of a value: type prefix + UTF-8 text, in one exactly-sized buffer. It may be a
 * slice of Node's shared pool: stores copy what they keep (memory) or only send it (Redis), so the
 * buffer lives only until the write returns.
 */
export const encodeStoredValue = (type: ValueType, text: string): Buffer => {
  const prefix = prefixOf(type);
  const out = Buffer.allocUnsafe(prefix.length + Buffer.byteLength(text, 'utf8'));
  prefix.copy(out, 0);
  out.write(text, prefix.length, 'utf8');
  return out;
};

/** Encodes values for one batch of writes; each value stays valid until the next `reset`. */
export interface ReusableEncoder {
  /** Starts a batch: the values encoded before may be overwritten from now on. */
  readonly reset: () => void;
  readonly encode: (type: ValueType, text: string) => Buffer;
}

/**
 * Encodes stored values into one buffer reused from batch to batch, for a store that has copied
 * the bytes when its put answers (`KeyValueStore.copiesOnPut`): no allocation per value, and one
 * pass over the text instead of counting its bytes first. The buffer grows to the largest batch
 * seen, which the request limits bound.
 */
export const createReusableEncoder = (initialBytes = 64 * 1024): ReusableEncoder => {
  let scratch = Buffer.allocUnsafeSlow(initialBytes);
  let used = 0;
  return {
    reset: () => {
      used = 0;
    },
    encode: (type, text) => {
      const prefix = prefixOf(type);
      // UTF-8 takes at most 3 bytes per UTF-16 code unit. Values encoded earlier in the batch
      // keep viewing the old buffer when a new one is needed.
      const most = prefix.length + text.length * 3;
      if (used + most > scratch.length) {
        scratch = Buffer.allocUnsafeSlow(Math.max(scratch.length * 2, most));
        used = 0;
      }
      prefix.copy(scratch, used);
      const end = used + prefix.length + scratch.write(text, used + prefix.length, 'utf8');
      const value = scratch.subarray(used, end);
      used = end;
      return value;
    },
  };
};

/**
 * Splits stored bytes back into their type and body (a view of a Buffer, a slice of a string; no
 * copy); undefined if neither prefix.
 */
export const decodeStoredValue = <B extends Bytes>(stored: B): { type: ValueType; body: B } | undefined => {
  // The type name is the prefix.
  if (startsWithAscii(stored, 'xml')) return { type: 'xml', body: bytesFrom(stored, 'xml'.length) };
  if (startsWithAscii(stored, 'json')) return { type: 'json', body: bytesFrom(stored, 'json'.length) };
  return undefined;
};
