import type { OpenRtbAuction } from '../../auction/openrtb-auction.js';
import { acceptAnyBodyAsText } from '../raw-body.js';
import type { HttpServer } from '../server.js';

/**
 * `POST /openrtb2/auction`: an OpenRTB request in, the bid response out. Prebid.js posts it as
 * `text/plain` with credentials (no CORS preflight), so any content type is read as JSON text;
 * the CORS headers are the server's own (`cors.ts`). A Fastify route: its cost is JSON and the
 * bidder calls, not HTTP parsing, so the lanes do not serve it.
 */
export const auctionRoutes = (server: HttpServer, opts: { auction: OpenRtbAuction; maxBodyBytes: number }): void => {
  void server.fastify.register((scope, _o, done) => {
    acceptAnyBodyAsText(scope);
    scope.post('/openrtb2/auction', { bodyLimit: opts.maxBodyBytes }, async (req, reply) => {
      const response = await opts.auction.run(typeof req.body === 'string' ? req.body : '', {
        ip: req.ip,
        ...(req.headers['user-agent'] !== undefined ? { userAgent: req.headers['user-agent'] } : {}),
        globalPrivacyControl: req.headers['sec-gpc'] === '1',
        ...(req.headers.cookie !== undefined ? { cookieHeader: req.headers.cookie } : {}),
      });
      void reply.code(200).type('application/json');
      return JSON.stringify(response);
    });
    done();
  });
};
