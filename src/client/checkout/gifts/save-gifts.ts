import type { Cart, CartOffer } from '../../../contract/cart.js';
import { giftUpdateFailure, type ApiFailure, type Say } from '../../../domain/api-error-catalogue.js';
import { withOffer } from '../../api/cart-queries.js';
import type { CheckoutApi } from '../../api/checkout-api.js';
import { failureOf } from '../../api/http-client.js';
import { giftFieldName } from '../form/checkout-form.js';
import { giftOffers } from '../section-rules.js';

/**
 * Saves every gift offer's details with one call per offer, in parallel, answering the saved lines; when any
 * call fails the save fails with status 513 and the failed offers' messages, said with the page's t() (`say`).
 */
export async function saveGifts(
  api: CheckoutApi,
  token: string,
  cart: Cart,
  text: Record<string, string>,
  say: Say,
): Promise<{ saved: CartOffer[]; failure: ApiFailure | null }> {
  const offers = giftOffers(cart);
  const value = (field: Parameters<typeof giftFieldName>[0], id: number) =>
    (text[giftFieldName(field, id)] ?? '').trim();
  const results = await Promise.allSettled(
    offers.map((offer) => {
      const id = offer.order_offer_id;
      return api.updateGift({
        order_offer_id: id,
        cart_token: token,
        gift_name: value('gift_name', id),
        gift_email: value('gift_email', id),
        gift_date: value('gift_date', id),
        gift_message: value('gift_message', id),
        gift_phone: value('gift_phone', id),
        order_offer_notes: value('order_offer_notes', id),
      });
    }),
  );
  const saved: CartOffer[] = [];
  const failures: { orderOfferId: number; failure: ApiFailure }[] = [];
  results.forEach((result, index) => {
    const offer = offers[index];
    if (!offer) return;
    if (result.status === 'fulfilled') saved.push(result.value.offer);
    else failures.push({ orderOfferId: offer.order_offer_id, failure: failureOf(result.reason, say) });
  });
  return { saved, failure: failures.length > 0 ? giftUpdateFailure(failures) : null };
}

/** The cart with the saved gift lines in place. */
export function withSavedGifts(cart: Cart, saved: readonly CartOffer[]): Cart {
  return saved.reduce(withOffer, cart);
}
