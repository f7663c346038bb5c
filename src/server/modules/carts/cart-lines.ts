import type { CartLineInput } from '../../../contract/merchant.js';
import { subscribeTermsOf } from '../../../domain/subscribe-and-save.js';
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

/** Whether a line of this offer may start subscribed: the offer has subscribe_and_save and the line is no gift. */
export function mayStartSubscribed(offer: OfferRow, isGift: boolean): boolean {
  return subscribeTermsOf({ ...offer, price_override: null, is_gift: isGift, subscribed: false }) !== null;
}

/**
 * Which lines of a merchant's cart or checkout link start subscribed (subscribe and save, docs/api.md), index for
 * index: `subscribe: true` is refused under offers.N.subscribe for a gift or an offer without subscribe_and_save.
 */
export function checkSubscribeChoices(
  input: readonly { subscribe?: boolean | undefined }[],
  checked: readonly CheckedLine[],
  fields: Record<string, string>,
): boolean[] {
  const subscribed = input.map((line) => line.subscribe ?? false);
  // The checked lines are the input's, index for index, only when none was refused.
  if (checked.length !== input.length) return subscribed;
  checked.forEach((line, index) => {
    if (!subscribed[index]) return;
    if (!mayStartSubscribed(line.offer, line.is_gift)) {
      fields[`offers.${index}.subscribe`] = line.is_gift
        ? 'A gift is bought once: it cannot start subscribed.'
        : `Offer ${line.offer.id} has no subscribe_and_save: it can only be bought once.`;
    }
  });
  return subscribed;
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
