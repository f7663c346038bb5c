// A checkout link's preview in words (docs/api.md, "Checkout link preview"): whether a visit opens a checkout, as
// cartFromLink decides it, and what the link's code takes off, for the merchant rather than the shopper.

export interface LinkState {
  active: boolean;
  expires_at: Date | null;
  /** how many of its lines have an active offer */
  activeLines: number;
}

/** Why a visit of the link opens no checkout now, or null when it opens one. */
export function linkClosedReason(link: LinkState, now: Date): string | null {
  if (!link.active) return 'This link is inactive: a visit opens no checkout. Make it active to use it.';
  if (link.expires_at !== null && link.expires_at.getTime() <= now.getTime())
    return 'This link has expired: a visit opens no checkout. Give it a later expiry to use it again.';
  if (link.activeLines === 0)
    return 'None of its offers is active: a visit opens no checkout. Make an offer active or change the lines.';
  return null;
}

/**
 * What the link's code does to the checkout when it takes nothing off, in the merchant's words; null when it applies
 * or the link has no code. `notice` is the checkout's own refusal (checkDiscountCode), written for the shopper.
 */
export function codeNoticeForMerchant(
  code: string | null,
  found: boolean,
  notice: { code: string; message: string } | null,
): string | null {
  if (code === null) return null;
  const none = 'The checkout takes nothing off.';
  if (!found) return `The code ${code} no longer exists. ${none}`;
  if (notice === null) return null;
  switch (notice.code) {
    case 'discount_code_not_found':
      return `The code ${code} is inactive. ${none} Make it active to apply it.`;
    case 'discount_code_not_applicable':
      return `The code ${code} is for other offers than these. ${none}`;
    case 'discount_code_minimum_not_met':
      return `${notice.message.replace(/ Add .*$/, '')} ${none}`;
    default:
      return `${notice.message} ${none}`;
  }
}
