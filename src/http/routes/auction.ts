import type { OpenRtbAuction } from '../../auction/openrtb-auction.js';
import { jsonAnswer } from '../answer.js';
import type { BodyAnswerRequest } from '../answer.js';
import type { HttpServer } from '../server.js';

/**
 * `POST /openrtb2/auction`: an OpenRTB request in, the bid response out. Prebid.js posts it as
 * `text/plain` with credentials (no CORS preflight), so any content type is read as JSON text;
 * the CORS headers are the server's own (`answer-headers.ts`). A lane route (`answerPost`): the
 * lanes serve a plainly framed JSON or text body, Fastify any other (and its 413 over the limit);
 * node:http's and Fastify's request machinery cost about a tenth of an auction's CPU
 * (docs/performance.md, "The cost of an auction"). Gzipped for a client that accepts it (`server.compression`).
 */
export const auctionRoutes = (server: HttpServer, opts: { auction: OpenRtbAuction; maxBodyBytes: number }): void => {
  server.answerPost(
    '/openrtb2/auction',
    opts.maxBodyBytes,
    server.compressed(({ body, headers, ip }: BodyAnswerRequest) =>
      opts.auction
        .run(body, {
          ip,
          ...(headers['user-agent'] !== undefined ? { userAgent: headers['user-agent'] } : {}),
          globalPrivacyControl: headers['sec-gpc'] === '1',
          ...(headers.cookie !== undefined ? { cookieHeader: headers.cookie } : {}),
        })
        .then(jsonAnswer),
    ),
  );
};
