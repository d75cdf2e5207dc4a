import assert from 'node:assert/strict';
import { randomUUID } from 'node:crypto';
import { after, before, describe, it } from 'node:test';
import type { KeyValueEntry, KeyValueStore } from '../../src/kv/key-value-store.js';
import { isAppError } from '../../src/core/app-error.js';
import { bytesToBuffer } from '../../src/core/bytes.js';
import type { Bytes } from '../../src/core/bytes.js';

export interface StoreUnderTest {
  readonly store: KeyValueStore;
  /** Releases whatever the factory started (servers, clients). */
  readonly cleanup: () => Promise<void>;
}

/** Bytes read back as a Buffer (a store may answer a Buffer or a byte string). */
export const storedBuffer = (bytes: Bytes | undefined): Buffer | undefined => (bytes === undefined ? undefined : bytesToBuffer(bytes));
/** Bytes read back, as UTF-8 text. */
export const storedText = (bytes: Bytes | undefined): string | undefined => storedBuffer(bytes)?.toString('utf8');

const entry = (key: string, value: string | Buffer, ttlSeconds = 60): KeyValueEntry => ({
  key,
  value: typeof value === 'string' ? Buffer.from(value) : value,
  ttlSeconds,
});

/**
 * The behaviour every `KeyValueStore` must have (see the port's contract). Each backend's test
 * file calls this with a factory; keys are random so tests never see each other's data.
 */
export const keyValueStoreContract = (name: string, make: () => Promise<StoreUnderTest>): void => {
  describe(`KeyValueStore contract: ${name}`, () => {
    let sut: StoreUnderTest;
    let store: KeyValueStore;
    const key = (label: string): string => `contract-${label}-${randomUUID()}`;

    before(async () => {
      sut = await make();
      store = sut.store;
    });
    after(async () => {
      await sut.cleanup();
    });

    it('reads a missing key as undefined', async () => {
      assert.equal(await store.get(key('missing')), undefined);
    });

    it('returns exactly the bytes written, binary and non-ASCII included', async () => {
      const k = key('bytes');
      const value = Buffer.concat([Buffer.from('xml<VAST>é😀</VAST>'), Buffer.from([0, 255, 10, 13])]);
      assert.deepEqual(await store.putMany([entry(k, value)], { createOnly: true }), [true]);
      const read = await store.get(k);
      assert.ok(read);
      assert.ok(storedBuffer(read)?.equals(value), 'stored bytes differ');
    });

    it('keeps a large value whole', async () => {
      const k = key('large');
      const value = Buffer.alloc(512 * 1024, 'abcdefgh');
      await store.putMany([entry(k, value)], { createOnly: true });
      const read = await store.get(k);
      assert.ok(storedBuffer(read)?.equals(value));
    });

    it('refuses an existing key under createOnly and keeps the first value', async () => {
      const k = key('exists');
      await store.putMany([entry(k, 'first')], { createOnly: true });
      assert.deepEqual(await store.putMany([entry(k, 'second')], { createOnly: true }), [false]);
      assert.equal(storedText(await store.get(k)), 'first');
    });

    it('overwrites when createOnly is false', async () => {
      const k = key('overwrite');
      await store.putMany([entry(k, 'first')], { createOnly: false });
      assert.deepEqual(await store.putMany([entry(k, 'second')], { createOnly: false }), [true]);
      assert.equal(storedText(await store.get(k)), 'second');
    });

    it('writes a batch in order, refusing the repeat of a key within it', async () => {
      const [a, b, c] = [key('a'), key('b'), key('c')];
      const result = await store.putMany([entry(a, 'A'), entry(b, 'B'), entry(a, 'A2'), entry(c, 'C')], { createOnly: true });
      assert.deepEqual(result, [true, true, false, true]);
      assert.equal(storedText(await store.get(a)), 'A');
      assert.equal(storedText(await store.get(b)), 'B');
      assert.equal(storedText(await store.get(c)), 'C');
    });

    it('mixes refused and written entries in one batch', async () => {
      const [old, fresh] = [key('old'), key('fresh')];
      await store.putMany([entry(old, 'kept')], { createOnly: true });
      assert.deepEqual(await store.putMany([entry(fresh, 'new'), entry(old, 'lost')], { createOnly: true }), [true, false]);
      assert.equal(storedText(await store.get(old)), 'kept');
      assert.equal(storedText(await store.get(fresh)), 'new');
    });

    it('answers an empty batch with an empty result', async () => {
      assert.deepEqual(await store.putMany([], { createOnly: true }), []);
    });

    it('handles many concurrent writes and reads', async () => {
      const keys = Array.from({ length: 200 }, (_, i) => key(`many${i}`));
      const results = await Promise.all(keys.map(async (k, i) => store.putMany([entry(k, `v${i}`)], { createOnly: true })));
      assert.ok(results.every((r) => r[0] === true));
      const values = await Promise.all(keys.map(async (k) => store.get(k)));
      values.forEach((v, i) => assert.equal(storedText(v), `v${i}`));
    });

    it('deletes keys, ignoring missing ones', async () => {
      const [a, b] = [key('del-a'), key('del-b')];
      await store.putMany([entry(a, 'A'), entry(b, 'B')], { createOnly: true });
      await store.delete([a, key('never-written')]);
      assert.equal(await store.get(a), undefined);
      assert.equal(storedText(await store.get(b)), 'B');
    });

    it('expires an entry after its TTL', async () => {
      const [short, long] = [key('ttl-short'), key('ttl-long')];
      await store.putMany([entry(short, 'gone soon', 1), entry(long, 'stays', 60)], { createOnly: true });
      assert.equal(storedText(await store.get(short)), 'gone soon');
      await new Promise((r) => setTimeout(r, 1300));
      assert.equal(await store.get(short), undefined);
      assert.equal(storedText(await store.get(long)), 'stays');
      // An expired key can be created again.
      assert.deepEqual(await store.putMany([entry(short, 'again', 60)], { createOnly: true }), [true]);
    });

    it('rejects with a backend AppError once closed', async () => {
      const own = await make();
      await own.store.close();
      await assert.rejects(async () => own.store.get(key('closed')), (err) => isAppError(err) && err.code.startsWith('BACKEND_'));
      await own.cleanup();
    });
  });
};
