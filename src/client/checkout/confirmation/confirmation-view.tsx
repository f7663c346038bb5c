import { useEffect, useRef } from 'react';
import type { Cart } from '../../../contract/cart.js';
import { countryName, longDate, money } from '../format.js';
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

/** After a completed order: a check mark, thanks, the order number, what was bought, and what happens next. */
export default function ConfirmationView({ cart }: { cart: Cart }) {
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
    </div>
  );
}
