import { ACCOUNT } from './stack.js';

/** A banner bid for the stored request's imp. */
export const ampBanner = (id: string, price: number, label: string) => ({
  id: 'resp',
  cur: 'USD',
  seatbid: [
    {
      bid: [
        {
          id,
          impid: 'imp-1',
          price,
          crid: `cr-${id}`,
          w: 300,
          h: 250,
          // ${AUCTION_PRICE} is the creative's to fill in from the cached bid.
          adm: `<div id="creative-${label}" style="width:300px;height:250px;background:#1d6f42;color:#fff;font:22px sans-serif;display:flex;flex-direction:column;align-items:center;justify-content:center">${label} via openbid<span id="price">price \${AUCTION_PRICE}</span></div>`,
        },
      ],
    },
  ],
});

/** The stored request AMP's `tag_id=amp-banner` selects. */
export const ampStoredRequests = {
  'amp-banner': {
    id: '{{UUID}}',
    site: { page: 'https://pub.example/stored', publisher: { id: ACCOUNT } },
    imp: [{ id: 'imp-1', banner: { format: [{ w: 300, h: 250 }] }, ext: { prebid: { bidder: { alpha: {}, beta: {} } } } }],
    ext: { prebid: { targeting: { pricegranularity: 'medium' } } },
  },
};
