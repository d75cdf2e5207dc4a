import assert from 'node:assert/strict';
import { it } from 'node:test';
import { isLaneBody, LANE_MAX_BODY_BYTES } from './lane-core.js';

it('a lane reads JSON or text bodies up to the route limit and 64 KiB; longer ones are Fastify\'s', () => {
  const limit = 1024 * 1024;
  assert.equal(isLaneBody('application/json', 1_000, limit), true);
  assert.equal(isLaneBody('text/plain; charset=utf-8', LANE_MAX_BODY_BYTES, limit), true);
  assert.equal(isLaneBody('application/json', LANE_MAX_BODY_BYTES + 1, limit), false);
  assert.equal(isLaneBody('application/json', 500_000, limit), false);
  assert.equal(isLaneBody('application/json', 2_000, 1_000), false);
  assert.equal(isLaneBody(undefined, 0, limit), true);
  assert.equal(isLaneBody('application/xml', 10, limit), false);
  assert.equal(isLaneBody('application/json', -1, limit), false);
});
