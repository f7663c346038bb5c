import { lazy, Suspense, useEffect, useRef } from 'react';
import type { Cart } from '../../../contract/cart.js';
import type { CardProcessorConfig } from '../../../contract/page-config.js';
import type { LinkedOrder } from '../../../contract/upsell.js';
import type { CheckoutApi } from '../../api/checkout-api.js';
import type { LoadCardProcessor } from '../payment/processors/load-card-processor.js';
import { fromMajor, minor, toMajor } from '../../../domain/money.js';
import { countryName, longDate, money } from '../format.js';

// Only an order whose link has upsells loads them (docs/api.md, "Upsells").
const UpsellFlow = lazy(() => import('../upsells/upsell-flow.js'));
import { OrderLines, OrderTotals } from '../summary/order-summary.js';

function addressOf(cart: Cart, prefix: 'ship' | 'bill'): string {
  const c = cart.customer;
  const get = (field: string) => (c[`${prefix}_${field}` as keyof Cart['customer']] as string).trim();
  const name = [get('fname'), get('lname')].filter(Boolean).join(' ');
  const lines = [
    name,
    [get('address1'), get('address2')].filter(Boolean).join(', '),
    [get('city'), [get('state'), get('zipcode')].filter(Boolean).join(' ')].filter(Boolean).join(' '),
    get('country') ? countryName(get('country')) : '',
  ];
  return lines.filter(Boolean).join(', ');
}

/** After a completed order: its one-click offers first when it has some, then the confirmation. */
export default function ConfirmationView({
  cart,
  api,
  cardProcessor,
  loadCardProcessor,
}: {
  cart: Cart;
  api?: CheckoutApi;
  /** the page's card processor, whose script runs a bank's challenge for an accepted offer (Stripe) */
  cardProcessor?: CardProcessorConfig;
  loadCardProcessor?: LoadCardProcessor;
}) {
  if (api && cart.order.has_upsells && cart.order.order_id !== null) {
    return (
      <Suspense
        fallback={
          <div className="confirmation" aria-busy="true">
            <p role="status">Your order is confirmed. One moment…</p>
          </div>
        }
      >
        <UpsellFlow
          cart={cart}
          api={api}
          Confirmation={Confirmation}
          cardProcessor={cardProcessor}
          loadCardProcessor={loadCardProcessor}
        />
      </Suspense>
    );
  }
  return <Confirmation cart={cart} linked={[]} />;
}

/** The total of the order and the orders accepted offers made after it, added in minor units. */
function totalOfAll(cart: Cart, linked: readonly LinkedOrder[]): number {
  const currency = cart.currency_value;
  const cents = (amount: number) => fromMajor(amount, currency) ?? minor(Math.round(amount * 100));
  const sum = linked.reduce((total, order) => total + cents(order.total), cents(cart.total) as number);
  return toMajor(minor(sum), currency);
}

/** A check mark, thanks, the order number, what was bought (with any offers accepted after), and what happens next. */
function Confirmation({ cart, linked }: { cart: Cart; linked: readonly LinkedOrder[] }) {
  const heading = useRef<HTMLHeadingElement>(null);
  useEffect(() => {
    heading.current?.focus();
  }, []);
  const name = cart.customer.ship_fname || cart.customer.bill_fname;
  const gifts = cart.offers.filter((offer) => offer.is_gift);
  const shipsTo = cart.order.shipping_information_required ? addressOf(cart, 'ship') : '';
  return (
    <div className="confirmation">
      <div className="confirmation__check" aria-hidden="true">
        ✓
      </div>
      <h2 className="confirmation__title" ref={heading} tabIndex={-1}>
        {name ? `Thank you, ${name}!` : 'Thank you!'}
      </h2>
      <p className="confirmation__lead">
        {cart.order.is_gift_claim ? 'Your gift is claimed.' : 'Your order is confirmed.'}
        {cart.order.order_id !== null ? (
          <>
            {' '}
            Order number <strong>#{cart.order.order_id}</strong>.
          </>
        ) : null}
        {cart.customer.email ? ` A receipt is on its way to ${cart.customer.email}.` : ''}
      </p>
      {cart.order.is_test ? (
        <p className="notice notice--info">This was a test order: nobody was charged.</p>
      ) : null}
      {shipsTo ? (
        <section className="confirmation__block" aria-labelledby="confirmation-ships">
          <h3 id="confirmation-ships">Shipping to</h3>
          <p>{shipsTo}</p>
        </section>
      ) : null}
      {cart.order.subscriptions.length > 0 ? (
        <section className="confirmation__block" aria-labelledby="confirmation-subscriptions">
          <h3 id="confirmation-subscriptions">Your subscription</h3>
          <ul>
            {cart.order.subscriptions.map((subscription) => (
              <li key={subscription.order_offer_id}>
                {subscription.item_name}: next charge of {money(subscription.amount, cart.currency_value)} on{' '}
                {longDate(subscription.next_charge_at)}, then every {subscription.interval_days} days.
              </li>
            ))}
          </ul>
          {cart.customer.email ? (
            <p>
              Your welcome email to {cart.customer.email} has the link to skip a charge, pause or cancel any
              time before a charge.
            </p>
          ) : null}
        </section>
      ) : null}
      {gifts.length > 0 ? (
        <section className="confirmation__block" aria-labelledby="confirmation-gifts">
          <h3 id="confirmation-gifts">Your gifts</h3>
          <ul>
            {gifts.map((offer) => (
              <li key={offer.id}>
                {offer.item_name}: we will email {offer.gift_name || 'the recipient'}
                {offer.gift_email ? ` (${offer.gift_email})` : ''}
                {offer.gift_date ? ` on ${longDate(offer.gift_date)}` : ''} with how to claim it.
              </li>
            ))}
          </ul>
        </section>
      ) : null}
      <section className="confirmation__block" aria-labelledby="confirmation-items">
        <h3 id="confirmation-items">What you ordered</h3>
        <OrderLines cart={cart} editable={false} />
        <OrderTotals cart={cart} pending={false} />
      </section>
      {linked.length > 0 ? (
        <section className="confirmation__block" aria-labelledby="confirmation-also">
          <h3 id="confirmation-also">Also ordered</h3>
          <ul>
            {linked.map((order) => (
              <li key={order.order_id}>
                Order #{order.order_id}:{' '}
                {order.lines
                  .map((line) =>
                    line.quantity > 1 ? `${line.item_name} × ${line.quantity}` : line.item_name,
                  )
                  .join(', ')}
                , {money(order.total, cart.currency_value)} charged to the same card.
              </li>
            ))}
          </ul>
          <p>
            Total of your orders: <strong>{money(totalOfAll(cart, linked), cart.currency_value)}</strong>
          </p>
        </section>
      ) : null}
    </div>
  );
}
