import assert from 'node:assert/strict';
import { it } from 'node:test';
import { deadlineSignal } from './deadline-signal.js';

it('takes a listener per bidder call in flight, past Node\'s default of 10, without a leak warning', async () => {
  const warnings: Error[] = [];
  const onWarning = (w: Error): void => void warnings.push(w);
  process.on('warning', onWarning);
  try {
    const deadline = deadlineSignal(1_000);
    for (let i = 0; i < 40; i++) deadline.signal.addEventListener('abort', () => undefined);
    deadline.clear();
    // Node emits process warnings on the next tick.
    await new Promise((resolve) => setImmediate(resolve));
    assert.deepEqual(warnings.map((w) => w.name), []);
  } finally {
    process.off('warning', onWarning);
  }
});

it('aborts at its deadline, and not once cleared', async () => {
  const fires = deadlineSignal(5);
  const cleared = deadlineSignal(5);
  cleared.clear();
  await new Promise((resolve) => setTimeout(resolve, 30));
  assert.equal(fires.signal.aborted, true);
  assert.equal(cleared.signal.aborted, false);
});

it('rearms the same signal for a later deadline, and gives a new one once aborted', async () => {
  const first = deadlineSignal(5);
  const moved = first.rearm(60);
  assert.equal(moved.signal, first.signal);
  await new Promise((resolve) => setTimeout(resolve, 30));
  assert.equal(moved.signal.aborted, false, 'the first deadline no longer fires');
  await new Promise((resolve) => setTimeout(resolve, 60));
  assert.equal(moved.signal.aborted, true, 'the moved deadline does');

  const fresh = moved.rearm(1_000);
  assert.notEqual(fresh.signal, moved.signal);
  assert.equal(fresh.signal.aborted, false);
  fresh.clear();
});

it('calls each listener still added once when it aborts, and neither removed ones nor ones added after', async () => {
  const deadline = deadlineSignal(5);
  const calls: string[] = [];
  const kept = (): void => void calls.push(`kept, aborted=${String(deadline.signal.aborted)}`);
  const removed = (): void => void calls.push('removed');
  deadline.signal.addEventListener('abort', kept);
  deadline.signal.addEventListener('abort', removed);
  deadline.signal.removeEventListener('abort', removed);
  await new Promise((resolve) => setTimeout(resolve, 30));
  deadline.signal.addEventListener('abort', () => void calls.push('late'));
  deadline.rearm(1).clear();
  await new Promise((resolve) => setTimeout(resolve, 20));
  assert.deepEqual(calls, ['kept, aborted=true']);
});
