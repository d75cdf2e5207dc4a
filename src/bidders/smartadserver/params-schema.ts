import Type from 'typebox';

const positiveId = (description: string) => Type.Optional(Type.Integer({ minimum: 1, description }));

/**
 * `imp.ext.bidder` for Equativ (Smart AdServer), as Prebid Server's
 * `static/bidder-params/smartadserver.json` defines it: `networkId` is required; `siteId`,
 * `pageId` and `formatId` go together (naming one needs the other two); every id is an integer of
 * at least 1. `programmaticGuaranteed` is not in the schema but the adapter reads it (other keys
 * are allowed).
 */
export const smartadserverParamsSchema = Type.Object(
  {
    siteId: positiveId('The Equativ site id'),
    pageId: positiveId('The Equativ page id'),
    formatId: positiveId('The Equativ format id'),
    networkId: Type.Integer({ minimum: 1, description: 'The Equativ network id; it becomes site.publisher.id' }),
  },
  {
    additionalProperties: true,
    dependencies: {
      siteId: { required: ['pageId', 'formatId'] },
      pageId: { required: ['siteId', 'formatId'] },
      formatId: { required: ['siteId', 'pageId'] },
    },
  },
);
