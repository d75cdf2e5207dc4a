import { mapMaybe } from '../../core/maybe-promise.js';
import { parseEventQuery } from '../../events/event-request.js';
import type { EventService } from '../../events/event-service.js';
import { TRANSPARENT_PIXEL_PNG } from '../../events/pixel.js';
import type { Answer } from '../answer.js';
import type { HttpServer } from '../server.js';

const BLANK: Answer = { status: 200 };
const PIXEL: Answer = { status: 200, contentType: 'image/png', body: TRANSPARENT_PIXEL_PNG };

/** `GET /event`: a win or impression notification; answers a blank 200 or (`f=i`) a 1×1 PNG. */
export const eventRoutes = (server: HttpServer, opts: { events: EventService }): void => {
  server.answerGet('/event', ({ query, headers }) => {
    const event = parseEventQuery(query);
    const userAgent = headers['user-agent'];
    const answer = event.format === 'image' ? PIXEL : BLANK;
    return mapMaybe(opts.events.handle(event, userAgent === undefined ? {} : { userAgent }), () => answer);
  });
};
