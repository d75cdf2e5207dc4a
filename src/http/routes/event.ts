import type { FastifyInstance } from 'fastify';
import { parseEventQuery } from '../../events/event-request.js';
import type { EventService } from '../../events/event-service.js';
import { TRANSPARENT_PIXEL_PNG } from '../../events/pixel.js';

/** `GET /event`: a win or impression notification; answers a blank 200 or (`f=i`) a 1×1 PNG. */
export const eventRoutes = (server: FastifyInstance, opts: { events: EventService }): void => {
  server.get('/event', async (req, reply) => {
    const event = parseEventQuery(req.query as Record<string, unknown>);
    const userAgent = req.headers['user-agent'];
    await opts.events.handle(event, userAgent === undefined ? {} : { userAgent });
    if (event.format === 'image') return reply.type('image/png').send(TRANSPARENT_PIXEL_PNG);
    return reply.code(200).send();
  });
};
