import type { IncomingMessage, ServerResponse } from 'node:http';
import type { Logger } from '../core/logger.js';
import type { MaybePromise } from '../core/maybe-promise.js';
import { answerBodyBytes } from './answer.js';
import type { Answer } from './answer.js';
import { answerFields } from './answer-headers.js';
import type { ClientAddress } from './client-address.js';
import { laneClock, laneQuery } from './lane-core.js';
import type { LaneRoute, LaneRoutes, PostRoute } from './lane-core.js';
import { createTurnBatch } from './turn-batch.js';

/**
 * The node lane: the hottest routes (`GET /cache`, `/storage`, `/event`, `/vtrack`, `/status`,
 * `/openrtb2/amp`; `POST /cache`, `/vtrack`, `/openrtb2/auction`) answered from node:http's request objects, without Fastify, on the
 * connections node:http serves (those the socket lane, `socket-lane.ts`, handed over, or all of
 * them when it is off). The answer has the same headers, errors and metrics as the Fastify route
 * of the same path, which stays registered and serves every request the lane passes on.
 *
 * Why: on these routes the work itself is a map lookup or a small write, and Fastify's
 * per-request machinery (request and reply objects, hooks, content-type parsing, promise
 * plumbing) cost a quarter of a bare server's throughput or more; the lane costs a query parse,
 * reading the body and one `writeHead` (docs/performance.md).
 *
 * Contract: `serve` answers only a GET or POST whose path is exactly a lane path and returns
 * true; for anything else it touches nothing and returns false, and Fastify serves the request.
 * "Anything else" is: another method, HEAD, a trailing slash, an encoded path, the lane turned
 * off, shutdown begun; and for POST, a body that is not plainly framed and small enough (chunked,
 * no Content-Length, over the route's limit) or a Content-Type other than JSON or plain text, so
 * Fastify's 413 and 415 answers and its content-type rules stay the only ones. node:http's own
 * limits (`headersTimeout`, `requestTimeout`, `maxRequestsPerSocket`, keep-alive) hold as on
 * any request it parses.
 */
export interface NodeLane {
  /** Answers `req` if it is the lane's; false leaves it untouched for Fastify. */
  serve(req: IncomingMessage, res: ServerResponse): boolean;
  /** Passes every later request to Fastify, which answers 503 while it drains. */
  close(): void;
}

export interface NodeLaneOptions {
  readonly logger: Logger;
  /** The routes, shared with the socket lane. */
  readonly routes: LaneRoutes;
  /** False turns the lane off: every request goes to Fastify. */
  readonly enabled: boolean;
  /** The client's address of a request (`server.trusted_proxies`). */
  readonly clientAddress: ClientAddress;
}

/** The length framing a POST's body, or -1: Node has already refused a malformed one, or one alongside Transfer-Encoding. */
const framedLength = (req: IncomingMessage): number => {
  const contentLength = req.headers['content-length'];
  return contentLength !== undefined && req.headers['transfer-encoding'] === undefined ? Number(contentLength) : -1;
};

const writeAnswer = (req: IncomingMessage, res: ServerResponse, route: LaneRoute, answer: Answer, started: number): void => {
  res.writeHead(answer.status, answerFields(answer, answerBodyBytes(answer), req.headers.origin));
  // A string body goes out in the same socket write as the head.
  if (answer.bodyEncoding === 'latin1') res.end(answer.body, 'latin1');
  else res.end(answer.body);
  route.record(answer.status, laneClock() - started);
};

export const createNodeLane = (opts: NodeLaneOptions): NodeLane => {
  const { routes, clientAddress } = opts;
  let open = opts.enabled;

  const batch = createTurnBatch(writeAnswer, (err, _req, res: ServerResponse, route: LaneRoute) => {
    // Only a bug in writing could land here; the other answers of the batch still go out.
    opts.logger.error({ err, route: route.route }, 'node lane could not write an answer');
    res.destroy();
  });

  /** Queues an answer for the turn's batch, now or once the handler's promise settles. */
  const queue = (req: IncomingMessage, res: ServerResponse, route: LaneRoute, answer: MaybePromise<Answer>, started: number): void => {
    if (answer instanceof Promise) void answer.then((a) => batch.push(req, res, route, a, started));
    else batch.push(req, res, route, answer, started);
  };

  /** Reads the whole body, then answers; an aborted upload has nobody left to answer. */
  const answerWithBody = (req: IncomingMessage, res: ServerResponse, route: PostRoute, started: number): void => {
    let first: Buffer | undefined;
    let more: Buffer[] | undefined;
    req.on('data', (chunk: Buffer) => {
      if (first === undefined) first = chunk;
      else (more ??= [first]).push(chunk);
    });
    req.on('end', () => {
      // Decoded once, whole, so a character split across chunks stays intact (as Fastify does).
      const body = more !== undefined ? Buffer.concat(more).toString('utf8') : first === undefined ? '' : first.toString('utf8');
      const headers = req.headers;
      const request = { query: laneQuery(req.url ?? ''), headers, body, ip: clientAddress(req.socket.remoteAddress, headers['x-forwarded-for']) };
      queue(req, res, route, routes.run(route, route.handler, request), started);
    });
    req.on('error', () => {
      // The client went away mid-body (Node reports it as an 'aborted' error), or node:http's
      // requestTimeout ended it: the socket is gone.
      res.destroy();
    });
  };

  return {
    serve: (req, res) => {
      if (!open) return false;
      const method = req.method;
      const route = routes.match(method, req.url ?? '', req.headers['content-type'], method === 'POST' ? framedLength(req) : 0);
      if (route === undefined) return false;
      const started = laneClock();
      if (route.method === 'POST') answerWithBody(req, res, route, started);
      else {
        const headers = req.headers;
        const request = { query: laneQuery(req.url ?? ''), headers, ip: clientAddress(req.socket.remoteAddress, headers['x-forwarded-for']) };
        queue(req, res, route, routes.run(route, route.handler, request), started);
      }
      return true;
    },

    close: () => {
      open = false;
    },
  };
};
