import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { Slots } from './slots.js';

describe('Slots', () => {
  it('starts at once while a slot is free, then in arrival order as slots are given back', () => {
    const slots = new Slots(2);
    const started: string[] = [];
    const leave = new Map<string, () => void>();
    for (const name of ['a', 'b', 'c', 'd']) leave.set(name, slots.take(() => started.push(name)));
    assert.deepEqual(started, ['a', 'b']);
    leave.get('b')!();
    assert.deepEqual(started, ['a', 'b', 'c']);
    leave.get('a')!();
    assert.deepEqual(started, ['a', 'b', 'c', 'd']);
  });

  it('drops a waiter that leaves before its turn, and gives a slot back only once', () => {
    const slots = new Slots(1);
    const started: string[] = [];
    const leaveA = slots.take(() => started.push('a'));
    const leaveB = slots.take(() => started.push('b'));
    slots.take(() => started.push('c'));
    leaveB();
    leaveA();
    leaveA();
    assert.deepEqual(started, ['a', 'c']);
    // One slot, held by c: a second give-back of a's must not have freed another.
    slots.take(() => started.push('d'));
    assert.deepEqual(started, ['a', 'c']);
  });
});
