/**
 * IAB US Privacy strings (`regs.us_privacy`, CCPA): `1` then three of `Y`, `N`, `-` (explicit
 * notice, opt-out of sale, LSPA covered). Only the opt-out matters to enforcement.
 */
export interface UsPrivacy {
  /** The user opted out of the sale of their data (`1?Y?`). */
  readonly optOutSale: boolean;
}

const FLAG = /^[YN-]$/;

/** The parsed string, or why it is not one (Prebid Server's messages). An empty string is no signal. */
export const parseUsPrivacy = (text: string): UsPrivacy | { readonly error: string } => {
  if (text.length !== 4) return { error: 'must contain 4 characters' };
  if (text[0] !== '1') return { error: 'must specify version 1' };
  const names = ['explicit notice', 'opt-out sale', 'limited service provider agreement'];
  for (let i = 1; i < 4; i++) {
    if (!FLAG.test(text[i]!)) return { error: `must specify 'N', 'Y', or '-' for the ${names[i - 1]!}` };
  }
  return { optOutSale: text[2] === 'Y' };
};
