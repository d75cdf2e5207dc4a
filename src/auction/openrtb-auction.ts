import type { Clock } from '../core/clock.js';
import type { BidResponse } from '../openrtb/types.js';
import type { AuctionPreparation, CallerInfo } from './prepare-auction.js';

/**
 * `POST /openrtb2/auction` as a use case: the body parsed, then the auction's one preparation
 * step (stored data, validation, limits, account, `tmax`) and the exchange. Rejects with
 * `AppError(BAD_REQUEST)` naming every problem of a bad request, `UNAUTHORIZED` for a refused
 * account; bidders' failures are part of the response.
 */
export interface OpenRtbAuction {
  run(body: string, caller: CallerInfo): Promise<BidResponse>;
}

export const createOpenRtbAuction = (opts: { preparation: AuctionPreparation; clock: Clock }): OpenRtbAuction => ({
  async run(body, caller) {
    const call = { entryPoint: 'auction', caller, startedAt: opts.clock.now() } as const;
    const outcome = await opts.preparation.hold(call, async () => ({ request: opts.preparation.parseBody(body) }));
    return outcome.response;
  },
});
