import type { BidderDiscovery } from '../../bidders/discovery.js';
import { TEXT_PLAIN } from '../answer.js';
import type { Answer } from '../answer.js';
import { firstParam } from '../raw-body.js';
import type { HttpServer } from '../server.js';

const JSON_TYPE = 'application/json';

/**
 * A boolean query flag as Prebid Server reads it: absent is false, `true`/`false` in any case,
 * anything else (an empty value too) `undefined`. Of a repeated parameter the first counts.
 */
const readFlag = (value: unknown): boolean | undefined => {
  if (value === undefined) return false;
  const text = firstParam(value)?.toLowerCase();
  return text === 'true' ? true : text === 'false' ? false : undefined;
};

/** Prebid Server's 400 for a flag that is not a boolean. */
const badFlag = (name: string): Answer => ({ status: 400, contentType: TEXT_PLAIN, body: `Invalid value for '${name}' query param, must be of boolean type` });

/**
 * The discovery endpoints of Prebid Server: `GET /info/bidders` (codes, filtered by
 * `enabledonly` and `baseadaptersonly`), `GET /info/bidders/<name>` (one bidder's details, or
 * `all`; 404 with an empty body for an unknown one) and `GET /bidders/params` (every params
 * schema). Their answers are built at start from the configuration.
 */
export const bidderInfoRoutes = (server: HttpServer, opts: { discovery: BidderDiscovery }): void => {
  server.answerGet('/info/bidders', (req) => {
    const enabledOnly = readFlag(req.query.enabledonly);
    if (enabledOnly === undefined) return badFlag('enabledonly');
    const baseAdaptersOnly = readFlag(req.query.baseadaptersonly);
    if (baseAdaptersOnly === undefined) return badFlag('baseadaptersonly');
    return { status: 200, contentType: JSON_TYPE, body: opts.discovery.listJson({ enabledOnly, baseAdaptersOnly }) };
  });
  server.fastify.get<{ Params: { name: string } }>('/info/bidders/:name', async (req, reply) => {
    const body = opts.discovery.detailJson(req.params.name);
    if (body === undefined) return reply.code(404).send('');
    return reply.type(JSON_TYPE).send(body);
  });
  server.answerGet('/bidders/params', () => ({ status: 200, contentType: JSON_TYPE, body: opts.discovery.paramsJson() }));
};
