import Type from 'typebox';

// Ids are integers, or strings of digits: publishers' ad servers send either.
const id = (description: string) =>
  Type.Union([Type.Integer({ minimum: 1 }), Type.String({ pattern: '^\\d+$' })], { description });

/**
 * `imp.ext.bidder` for Rubicon (Magnite), as Prebid Server's `static/bidder-params/rubicon.json`
 * defines it: `accountId`, `siteId` and `zoneId` are required; targeting objects (`inventory`,
 * `visitor`) hold arrays; `video` tunes the video ext. Keys it does not name are allowed.
 */
export const rubiconParamsSchema = Type.Object(
  {
    accountId: id("The publisher's Magnite account"),
    siteId: id('The site selling the impression'),
    zoneId: id('The zone (section of the site) of the impression'),
    inventory: Type.Optional(Type.Record(Type.String(), Type.Array(Type.Unknown()), { description: 'Page targeting key/value pairs' })),
    bidonmultiformat: Type.Optional(Type.Boolean({ description: 'Send each media type of a multi-format imp in its own call' })),
    visitor: Type.Optional(Type.Record(Type.String(), Type.Array(Type.Unknown()), { description: 'Visitor targeting key/value pairs' })),
    pchain: Type.Optional(Type.String({ description: 'A payment id chain' })),
    video: Type.Optional(
      Type.Object(
        {
          language: Type.Optional(Type.String()),
          playerHeight: Type.Optional(Type.Union([Type.Integer(), Type.String()])),
          playerWidth: Type.Optional(Type.Union([Type.Integer(), Type.String()])),
          size_id: Type.Optional(Type.Integer({ description: "Magnite's size id of the video ad (preroll, postroll, …)" })),
          skip: Type.Optional(Type.Integer({ description: '1 when the ad can be skipped' })),
          skipdelay: Type.Optional(Type.Integer({ description: 'Seconds before the ad can be skipped' })),
        },
        { additionalProperties: true },
      ),
    ),
  },
  { additionalProperties: true },
);
