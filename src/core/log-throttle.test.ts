import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { throttledLog } from './log-throttle.js';

describe('throttledLog', () => {
  it('logs the first call, drops calls within the interval, then reports how many it dropped', () => {
    let now = 1000;
    const lines: number[] = [];
    const log = throttledLog(5000, () => now);
    log((s) => lines.push(s));
    now += 4999;
    log((s) => lines.push(s));
    log((s) => lines.push(s));
    assert.deepEqual(lines, [0]);
    now += 1;
    log((s) => lines.push(s));
    assert.deepEqual(lines, [0, 2]);
  });
});
