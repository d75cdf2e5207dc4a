/** Every name a plain object inherits: `constructor`, `toString`, `__proto__`, `__defineGetter__`... */
export const PROTOTYPE_KEYS: readonly string[] = Object.getOwnPropertyNames(Object.prototype);

/**
 * A bidder's answer with one valid bid for `imp-1` and one naming no imp of the request: the
 * second is dropped with a warning for the bidder, so every bidder that answers has an entry in
 * `ext.warnings` too.
 */
export const ONE_VALID_ONE_STRAY_BID = {
  id: 'resp',
  cur: 'USD',
  seatbid: [
    {
      bid: [
        { id: 'a1', impid: 'imp-1', price: 2, adm: '<div>a1</div>', crid: 'cr-a1', w: 300, h: 250 },
        { id: 'a2', impid: 'no-such-imp', price: 3, adm: '<div>a2</div>', crid: 'cr-a2', w: 300, h: 250 },
      ],
    },
  ],
};
