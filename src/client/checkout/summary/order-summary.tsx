import { Suspense, useEffect, useId, useRef, useState } from 'react';
import type { Cart, CartOffer } from '../../../contract/cart.js';
import { canRemoveCartLine, isCartEditable } from '../../../domain/editable-cart.js';
import { subscriptionScheduleText } from '../../../domain/subscription-schedule.js';
import { T, useT } from '../../i18n/use-t.js';
import { useCheckout } from '../checkout-context.js';
import { money } from '../format.js';
import { DiscountCodeForm } from './discount-code-form.js';
import { QuantityControl, removeButtonId } from './quantity-control.js';
import { RemovedLine } from './removed-line.js';
import { hasPricesByCycle } from '../../../domain/billing-plan.js';
import { preloadedLazy } from '../../ui/preloaded-lazy.js';

// The words of plans priced by cycle: a chunk loaded only for a cart that has one.
const billingPlanNotes = preloadedLazy(() => import('./billing-plan-notes.js'));
import { subscribeChoiceChunk } from './subscribe-choice-chunk.js';

export interface OrderSummaryProps {
  /** amounts are being recomputed (tax and shipping preview pending) */
  pending: boolean;
}

export interface LineRemoval {
  /** the line removed last, with its quantity then, and where it stood */
  removed: { offer: CartOffer; index: number } | null;
  onRemoved: (offer: CartOffer) => void;
  onRestored: (offer: CartOffer) => void;
}

export function OrderLines({
  cart,
  editable,
  removal,
}: {
  cart: Cart;
  editable: boolean;
  removal?: LineRemoval;
}) {
  const { t, locale } = useT();
  // A line may be removed only while another stays (canRemoveCartLine, the server's rule too).
  const removable = editable && removal !== undefined && canRemoveCartLine(cart.offers.length);
  // Buy once or subscribe: chosen until the order is paid or handed to an express payment (the server's rule too).
  const choosable = cart.order.status !== 'complete' && cart.order.status !== 'awaiting_payment';
  const items = cart.offers.map((offer) => {
    const options = offer.order_offer_item_options.map((option) => `${option.name}: ${option.value}`);
    return (
      <li className="summary__line" key={offer.id}>
        <div className="summary__image">
          {offer.item_image ? (
            <img src={offer.item_image} alt="" width={64} height={64} decoding="async" />
          ) : null}
          {!editable ? (
            <span className="summary__badge">
              <T
                id="summary.quantity_badge"
                values={{ quantity: offer.order_offer_quantity }}
                components={[<span className="visually-hidden" />]}
              />
            </span>
          ) : null}
        </div>
        <div className="summary__details">
          <p className="summary__name">{offer.item_name}</p>
          {options.length > 0 ? <p className="summary__meta">{options.join(' · ')}</p> : null}
          {offer.override_initial_item_name ? (
            <p className="summary__meta">
              {t('summary.first_delivery', { item: offer.override_initial_item_name })}
            </p>
          ) : null}
          {offer.is_gift ? <p className="summary__tag">{t('summary.gift')}</p> : null}
          {offer.subscribe_and_save ? (
            <Suspense fallback={null}>
              <subscribeChoiceChunk.Component
                offer={offer}
                currency={cart.currency_value}
                choosable={choosable}
              />
            </Suspense>
          ) : null}
          {editable ? (
            <QuantityControl
              offer={offer}
              removable={removable}
              onRemoved={removal?.onRemoved ?? (() => undefined)}
            />
          ) : null}
        </div>
        <p className="summary__price">{money(offer.subtotal_offer, cart.currency_value, locale)}</p>
      </li>
    );
  });
  const removed = removal?.removed;
  // Undo stands where the line was, until it is used or another line is removed.
  if (editable && removed && !cart.offers.some((offer) => offer.id === removed.offer.id)) {
    items.splice(
      Math.min(removed.index, items.length),
      0,
      <RemovedLine
        key={`removed-${removed.offer.id}`}
        offer={removed.offer}
        onRestored={removal.onRestored}
      />,
    );
  }
  return <ul className="summary__lines">{items}</ul>;
}

export function OrderTotals({ cart, pending }: { cart: Cart; pending: boolean }) {
  const { t, language, locale } = useT();
  const currency = cart.currency_value;
  const shipping = cart.total_offer_shipping + cart.total_campaign_shipping;
  const shippingKnown = !cart.order.shipping_information_required || cart.preview !== null || shipping > 0;
  // Prices by cycle change after the first cycles: the server's words for each plan say it, not one interval's sum.
  const byCycle = hasPricesByCycle(cart.offers);
  const schedule = byCycle
    ? null
    : subscriptionScheduleText(cart.total, cart.offers, currency, { t, language });
  return (
    <dl className={`summary__totals${pending ? ' summary__totals--pending' : ''}`} aria-busy={pending}>
      <div className="summary__row">
        <dt>{t('summary.subtotal')}</dt>
        <dd>{money(cart.subtotal, currency, locale)}</dd>
      </div>
      {cart.total_discount > 0 ? (
        <div className="summary__row summary__row--discount">
          <dt>
            {cart.discount_code
              ? t('summary.discount_with_code', { code: cart.discount_code })
              : t('summary.discount')}
          </dt>
          <dd>−{money(cart.total_discount, currency, locale)}</dd>
        </div>
      ) : null}
      {cart.order.shipping_information_required || shipping > 0 ? (
        <div className="summary__row">
          <dt>{t('summary.shipping')}</dt>
          <dd>
            {shippingKnown
              ? shipping === 0
                ? t('summary.free')
                : money(shipping, currency, locale)
              : t('summary.calculated_next')}
          </dd>
        </div>
      ) : null}
      <div className="summary__row">
        <dt>{t('summary.tax')}</dt>
        <dd>{money(cart.total_tax, currency, locale)}</dd>
      </div>
      {cart.total_gift_cards > 0 ? (
        <div className="summary__row">
          <dt>{t('summary.gift_cards')}</dt>
          <dd>−{money(cart.total_gift_cards, currency, locale)}</dd>
        </div>
      ) : null}
      <div className="summary__row summary__row--total">
        <dt>{t('summary.total')}</dt>
        <dd>
          <span className="summary__currency">{currency}</span> {money(cart.total, currency, locale)}
        </dd>
      </div>
      {byCycle ? (
        <Suspense fallback={null}>
          <billingPlanNotes.Component cart={cart} place="summary" />
        </Suspense>
      ) : null}
      {schedule ? (
        <div className="summary__row summary__row--schedule">
          <dt className="visually-hidden">{t('summary.subscription')}</dt>
          <dd>{schedule}</dd>
        </div>
      ) : null}
    </dl>
  );
}

/** The order summary: sticky on the right from md up, a bar that expands in place below md. */
export function OrderSummary({ pending }: OrderSummaryProps) {
  const { cart, config } = useCheckout();
  const { t, locale } = useT();
  const [expanded, setExpanded] = useState(false);
  const itemCount = cart.offers.reduce((sum, offer) => sum + offer.order_offer_quantity, 0);
  const bodyId = useId();
  const editable = isCartEditable(config.client_options.cart.editable) && cart.editable;
  const [removed, setRemoved] = useState<LineRemoval['removed']>(null);
  const focusRestored = useRef<number | null>(null);
  const removal: LineRemoval = {
    removed,
    onRemoved: (offer) =>
      setRemoved({ offer, index: cart.offers.findIndex((candidate) => candidate.id === offer.id) }),
    onRestored: (offer) => {
      focusRestored.current = offer.id;
      setRemoved(null);
    },
  };
  // The restored line's Remove takes the focus Undo had (Undo went away), once the cart shows the line again.
  useEffect(() => {
    if (focusRestored.current === null) return;
    const remove = document.getElementById(removeButtonId(focusRestored.current));
    if (!remove) return;
    focusRestored.current = null;
    remove.focus();
  });
  return (
    <aside className={`summary${expanded ? ' summary--expanded' : ''}`} aria-labelledby={`${bodyId}-heading`}>
      <button
        type="button"
        className="summary__toggle"
        aria-expanded={expanded}
        aria-controls={bodyId}
        onClick={() => setExpanded((value) => !value)}
      >
        <span>{expanded ? t('summary.hide') : t('summary.show')}</span>
        <span className="summary__toggle-total">{money(cart.total, cart.currency_value, locale)}</span>
      </button>
      <div className="summary__body" id={bodyId}>
        <h2 className="summary__heading" id={`${bodyId}-heading`}>
          {t('summary.heading')}
        </h2>
        <p className="summary__count">{t('summary.item_count', { count: itemCount })}</p>
        <OrderLines cart={cart} editable={editable} removal={removal} />
        {!cart.order.is_gift_claim ? <DiscountCodeForm /> : null}
        <OrderTotals cart={cart} pending={pending} />
      </div>
    </aside>
  );
}
