import { goAtoi, goTrimSpace } from '../go-text.js';

/** What an `adSlot` param says: the tag id, and in the `name@WxH` form a banner size. */
export interface AdSlot {
  readonly tagid?: string;
  readonly size?: { readonly w: number; readonly h: number };
}

/**
 * Reads PubMatic's `adSlot` param. Its forms are `""` (nothing), `name` (the tag id) and
 * `name@WxH` (tag id and banner size; `x` in any case, spaces around the numbers allowed, and
 * anything after a `:` in the height ignored, as in `name@300x250:1`). Anything else is an error
 * naming the slot, worded as Prebid Server words it: the imp is then not sent.
 */
export const parseAdSlot = (adSlot: string): { slot: AdSlot } | { error: string } => {
  const slot = goTrimSpace(adSlot);
  if (slot === '') return { slot: {} };
  if (!slot.includes('@')) return { slot: { tagid: slot } };

  const parts = slot.split('@');
  const [name = '', sizeText = ''] = parts;
  if (parts.length !== 2 || name === '' || sizeText === '') return { error: `Invalid adSlot ${slot}` };

  const dims = sizeText.toLowerCase().split('x');
  if (dims.length !== 2) return { error: `Invalid size provided in adSlot ${slot}` };
  const w = goAtoi(goTrimSpace(dims[0] ?? ''));
  if (w === undefined) return { error: `Invalid width provided in adSlot ${slot}` };
  const h = goAtoi(goTrimSpace((dims[1] ?? '').split(':')[0] ?? ''));
  if (h === undefined) return { error: `Invalid height provided in adSlot ${slot}` };
  return { slot: { tagid: goTrimSpace(name), size: { w, h } } };
};
