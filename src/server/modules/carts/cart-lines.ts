import type { CartLineInput } from '../../../contract/merchant.js';
import type { Queryable } from '../../platform/db/database.js';
import { findDiscountCodeByCode, type DiscountCodeRow } from '../catalog/discount-codes-repository.js';
import { findOffers, type OfferRow } from '../catalog/offers-repository.js';

export interface CheckedLine {
  offer: OfferRow;
  quantity: number;
  is_gift: boolean;
}

/**
 * Checks the offers of a merchant's cart or checkout link: each exists in this organization and is active, and only
 * giftable offers are sent as gifts. Problems are added to fields under offers.N.*.
 */
export async function checkCartLines(
  db: Queryable,
  organizationId: number,
  lines: readonly CartLineInput[],
  fields: Record<string, string>,
): Promise<CheckedLine[]> {
  const offers = new Map(
    (
      await findOffers(
        db,
        organizationId,
        lines.map((line) => line.offer_id),
      )
    ).map((o) => [o.id, o]),
  );
  const checked: CheckedLine[] = [];
  lines.forEach((line, index) => {
    const offer = offers.get(line.offer_id);
    if (!offer) {
      fields[`offers.${index}.offer_id`] = `No offer with id ${line.offer_id} exists.`;
      return;
    }
    if (!offer.active) {
      fields[`offers.${index}.offer_id`] = `Offer ${offer.id} is not active.`;
      return;
    }
    if (line.is_gift && !offer.is_giftable) {
      fields[`offers.${index}.is_gift`] =
        `Offer ${offer.id} cannot be sent as a gift; make it giftable first.`;
      return;
    }
    checked.push({ offer, quantity: line.quantity ?? 1, is_gift: line.is_gift ?? false });
  });
  return checked;
}

/** The organization's code by its (case-insensitive) text, or a field problem naming it. */
export async function checkDiscountCodeExists(
  db: Queryable,
  organizationId: number,
  code: string | null | undefined,
  fields: Record<string, string>,
): Promise<DiscountCodeRow | null> {
  if (code === null || code === undefined || code.trim() === '') return null;
  const row = await findDiscountCodeByCode(db, organizationId, code);
  if (!row) {
    fields.discount_code = `No discount code ${code.trim().toUpperCase()} exists.`;
    return null;
  }
  return row;
}
