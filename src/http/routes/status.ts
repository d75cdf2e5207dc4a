import { TEXT_PLAIN } from '../answer.js';
import type { Answer } from '../answer.js';
import type { HttpServer } from '../server.js';

const SERVING: Answer = { status: 204 };
const SHUTTING_DOWN: Answer = { status: 503, contentType: TEXT_PLAIN, body: 'shutting down' };

/**
 * `GET /status`: 204 while serving, 503 once shutdown has begun, so a load balancer drains this
 * instance. It does not probe Redis: a shared backend outage must not take every instance out of
 * rotation at once (the endpoints themselves answer 5xx quickly instead). A lane route, so a
 * load balancer's probes on a pooled connection keep it on the socket lane.
 */
export const statusRoutes = (server: HttpServer, opts: { isShuttingDown: () => boolean }): void => {
  server.answerGet('/status', () => (opts.isShuttingDown() ? SHUTTING_DOWN : SERVING));
};
