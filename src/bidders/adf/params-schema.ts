import Type from 'typebox';

/**
 * `imp.ext.bidder` for Adform, as Prebid Server's `static/bidder-params/adf.json` defines it:
 * either `mid` (the placement: an integer, or a string of digits) or both `inv` (an integer) and
 * `mname` (a string). `priceType` is `gross` or `net` — matched anywhere in the text, as the
 * upstream pattern is unanchored. Keys it does not name are allowed.
 */
export const adfParamsSchema = Type.Object(
  {
    mid: Type.Optional(Type.Union([Type.Integer(), Type.String({ pattern: '^\\d+$' })], { description: 'The id of the placement selling the impression; it becomes imp.tagid' })),
    inv: Type.Optional(Type.Integer({ description: 'The Adform inventory source id' })),
    mname: Type.Optional(Type.String({ description: 'The name of the placement selling the impression' })),
    priceType: Type.Optional(Type.String({ pattern: 'gross|net', description: 'gross or net (the default)' })),
  },
  {
    additionalProperties: true,
    // A placement id, or an inventory source with a placement name, identifies the slot.
    anyOf: [{ required: ['mid'] }, { required: ['inv', 'mname'] }],
  },
);
