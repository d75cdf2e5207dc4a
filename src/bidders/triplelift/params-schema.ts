import Type from 'typebox';

/**
 * `imp.ext.bidder` for TripleLift, as Prebid Server's `static/bidder-params/triplelift.json`
 * defines it: `inventoryCode` (a string) required, `floor` (a number) optional. Keys it does not
 * name are allowed.
 */
export const tripleliftParamsSchema = Type.Object(
  {
    inventoryCode: Type.String({ description: 'The TripleLift inventory code of this ad unit; it becomes imp.tagid' }),
    floor: Type.Optional(Type.Number({ description: "The bid floor, in the imp's bidfloorcur; replaces imp.bidfloor" })),
  },
  { additionalProperties: true },
);
