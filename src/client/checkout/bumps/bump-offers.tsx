import { useState } from 'react';
import type { Cart, CartBump } from '../../../contract/cart.js';
import { failureOf } from '../../api/http-client.js';
import { lazySchema } from '../../api/lazy-schema.js';
import { useAnnounce } from '../../ui/live-region.js';
import { useCheckout } from '../checkout-context.js';
import { money } from '../format.js';
import './bump-offers.css';
import { useT, type Translate } from '../../i18n/use-t.js';

const CartSchema = lazySchema((schemas) => schemas.CartSchema);

const inputId = (offerId: number) => `bump-${offerId}`;
const textId = (offerId: number) => `bump-${offerId}-text`;
const errorId = (offerId: number) => `bump-${offerId}-error`;

/**
 * The order-bump boxes above the pay button (docs/checkout-rules.md, "Order bumps"): ticking one adds its line,
 * unticking removes it; the server answers the cart with its totals, which the page shows and announces. Loaded as a
 * chunk of its own, only for a cart that has bumps.
 */
/** What ticking the box does: "Add Travel mug for $12.00", and for a recurring bump what it charges later. */
export function bumpCheckboxLabel(bump: CartBump, currency: string, t: Translate, locale: string): string {
  const price = money(bump.price, currency, locale);
  if (!bump.is_recurring || bump.billing_interval_days === null)
    return t('funnel.bump_label', { item: bump.item_name, price });
  return t('funnel.bump_label_recurring', {
    item: bump.item_name,
    price,
    next: money(bump.next_price ?? bump.price, currency, locale),
    days: bump.billing_interval_days,
  });
}

export default function BumpOffers() {
  const { api, token, cart, setCart, orderState } = useCheckout();
  const { t, locale } = useT();
  const announce = useAnnounce();
  // The box the shopper just changed shows their choice while the server answers (and goes back if it refuses).
  const [pending, setPending] = useState<{ offerId: number; selected: boolean } | null>(null);
  const [error, setError] = useState<{ offerId: number; message: string } | null>(null);
  const currency = cart.currency_value;

  const change = async (bump: CartBump, selected: boolean) => {
    if (pending !== null) return;
    setPending({ offerId: bump.offer_id, selected });
    setError(null);
    try {
      // PUT carts/{token}/bumps: the same answer however often it is sent (docs/api.md).
      const next: Cart = await api.http.request({
        method: 'PUT',
        path: `carts/${encodeURIComponent(token)}/bumps`,
        body: { offer_id: bump.offer_id, selected },
        schema: CartSchema,
      });
      setCart(next);
      const total = money(next.total, next.currency_value, locale);
      announce(t(selected ? 'funnel.bump_added' : 'funnel.bump_removed', { item: bump.item_name, total }));
    } catch (failure) {
      setError({ offerId: bump.offer_id, message: failureOf(failure, t).message });
    } finally {
      setPending(null);
    }
  };

  return (
    <section className="bumps" aria-labelledby="bumps-heading">
      <h2 className="bumps__heading" id="bumps-heading">
        {t('funnel.add_to_order')}
      </h2>
      <ul className="bumps__list">
        {cart.bumps.map((bump) => {
          const failed = error?.offerId === bump.offer_id ? error.message : null;
          return (
            <li className={`bump${bump.selected ? ' bump--selected' : ''}`} key={bump.offer_id}>
              {bump.item_image ? (
                <img
                  className="bump__image"
                  src={bump.item_image}
                  alt={bump.item_name}
                  width={64}
                  height={64}
                  decoding="async"
                />
              ) : null}
              <div className="bump__body">
                <p className="bump__text" id={textId(bump.offer_id)}>
                  {bump.text}
                </p>
                <p className="bump__price">{money(bump.price, currency, locale)}</p>
                <div className="checkbox bump__choice">
                  <input
                    className="checkbox__input"
                    type="checkbox"
                    id={inputId(bump.offer_id)}
                    checked={pending?.offerId === bump.offer_id ? pending.selected : bump.selected}
                    // Not disabled while a change is pending: a disabled box would drop the keyboard's focus.
                    aria-disabled={pending !== null ? true : undefined}
                    disabled={orderState.loading}
                    aria-describedby={
                      failed ? `${textId(bump.offer_id)} ${errorId(bump.offer_id)}` : textId(bump.offer_id)
                    }
                    onChange={(event) => void change(bump, event.target.checked)}
                  />
                  <label className="checkbox__label" htmlFor={inputId(bump.offer_id)}>
                    {bumpCheckboxLabel(bump, currency, t, locale)}
                  </label>
                </div>
                {failed ? (
                  <p className="field__error" id={errorId(bump.offer_id)} role="alert">
                    {failed}
                  </p>
                ) : null}
              </div>
            </li>
          );
        })}
      </ul>
    </section>
  );
}
