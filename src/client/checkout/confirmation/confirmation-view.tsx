import { lazy, Suspense, useEffect, useRef } from 'react';
import type { Cart } from '../../../contract/cart.js';
import type { CardProcessorConfig } from '../../../contract/page-config.js';
import type { LinkedOrder } from '../../../contract/upsell.js';
import type { CheckoutApi } from '../../api/checkout-api.js';
import type { LoadCardProcessor } from '../payment/processors/load-card-processor.js';
import { fromMajor, minor, toMajor } from '../../../domain/money.js';
import { countryName, longDate, money } from '../format.js';
import { addressLines } from '../../../domain/address/address-format.js';
import { useWrittenAddressFormat } from '../shipping/address-data-chunk.js';

// Only an order whose link has upsells loads them (docs/api.md, "Upsells").
const UpsellFlow = lazy(() => import('../upsells/upsell-flow.js'));
import { OrderLines, OrderTotals } from '../summary/order-summary.js';
import { T, useT, type Translate } from '../../i18n/use-t.js';
import type { Language } from '../../../i18n/languages.js';

/** The address the order ships to, a line per line of its country's format (docs/languages.md, "Addresses"). */
function ShipsTo({ cart, language, locale }: { cart: Cart; language: Language; locale: string }) {
  const c = cart.customer;
  const format = useWrittenAddressFormat(c.ship_country);
  const lines = addressLines(
    {
      fname: c.ship_fname,
      lname: c.ship_lname,
      address1: c.ship_address1,
      address2: c.ship_address2,
      city: c.ship_city,
      state: c.ship_state,
      zipcode: c.ship_zipcode,
    },
    format,
    language,
    c.ship_country.trim() ? countryName(c.ship_country.trim(), locale) : '',
  );
  return (
    <p>
      {lines.map((line, index) => (
        <span key={index}>
          {index > 0 ? <br /> : null}
          {line}
        </span>
      ))}
    </p>
  );
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
  const { t } = useT();
  if (api && cart.order.has_upsells && cart.order.order_id !== null) {
    return (
      <Suspense
        fallback={
          <div className="confirmation" aria-busy="true">
            <p role="status">{t('confirmation.one_moment')}</p>
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

/** Who is told of a gift, and when: their name (and email), or the recipient when the giver named nobody. */
function giftNotice(offer: Cart['offers'][number], t: Translate, locale: string): string {
  const name = offer.gift_name.trim();
  const email = offer.gift_email.trim();
  const recipient = name && email ? `${name} (${email})` : name || email;
  const date = offer.gift_date ? longDate(offer.gift_date, locale) : null;
  const item = offer.item_name;
  if (recipient) {
    return date
      ? t('confirmation.gift_to_on', { item, recipient, date })
      : t('confirmation.gift_to', { item, recipient });
  }
  return date
    ? t('confirmation.gift_to_someone_on', { item, date })
    : t('confirmation.gift_to_someone', { item });
}

/** A check mark, thanks, the order number, what was bought (with any offers accepted after), and what happens next. */
function Confirmation({ cart, linked }: { cart: Cart; linked: readonly LinkedOrder[] }) {
  const { t, language, locale } = useT();
  const heading = useRef<HTMLHeadingElement>(null);
  const amount = (value: number) => money(value, cart.currency_value, locale);
  useEffect(() => {
    heading.current?.focus();
  }, []);
  const name = cart.customer.ship_fname || cart.customer.bill_fname;
  const gifts = cart.offers.filter((offer) => offer.is_gift);
  const c = cart.customer;
  const shipsTo =
    cart.order.shipping_information_required &&
    [
      c.ship_fname,
      c.ship_lname,
      c.ship_address1,
      c.ship_city,
      c.ship_state,
      c.ship_zipcode,
      c.ship_country,
    ].some((field) => field.trim() !== '');
  return (
    <div className="confirmation">
      <div className="confirmation__check" aria-hidden="true">
        ✓
      </div>
      <h2 className="confirmation__title" ref={heading} tabIndex={-1}>
        {name ? t('confirmation.thanks_name', { name }) : t('confirmation.thanks')}
      </h2>
      <p className="confirmation__lead">
        {t(cart.order.is_gift_claim ? 'confirmation.gift_claimed' : 'confirmation.order_confirmed')}
        {cart.order.order_id !== null ? (
          <>
            {' '}
            <T
              id="confirmation.order_number"
              values={{ number: cart.order.order_id }}
              components={[<strong key="number" />]}
            />
          </>
        ) : null}
        {cart.customer.email ? <> {t('confirmation.receipt', { email: cart.customer.email })}</> : null}
      </p>
      {cart.order.is_test ? <p className="notice notice--info">{t('confirmation.test_order')}</p> : null}
      {shipsTo ? (
        <section className="confirmation__block" aria-labelledby="confirmation-ships">
          <h3 id="confirmation-ships">{t('confirmation.shipping_to')}</h3>
          <ShipsTo cart={cart} language={language} locale={locale} />
        </section>
      ) : null}
      {cart.order.subscriptions.length > 0 ? (
        <section className="confirmation__block" aria-labelledby="confirmation-subscriptions">
          <h3 id="confirmation-subscriptions">{t('confirmation.your_subscription')}</h3>
          <ul>
            {cart.order.subscriptions.map((subscription) => (
              <li key={subscription.order_offer_id}>
                {t('confirmation.next_charge', {
                  item: subscription.item_name,
                  amount: amount(subscription.amount),
                  date: longDate(subscription.next_charge_at, locale),
                  days: subscription.interval_days,
                })}
              </li>
            ))}
          </ul>
          {cart.customer.email ? (
            <p>{t('confirmation.welcome_email', { email: cart.customer.email })}</p>
          ) : null}
        </section>
      ) : null}
      {gifts.length > 0 ? (
        <section className="confirmation__block" aria-labelledby="confirmation-gifts">
          <h3 id="confirmation-gifts">{t('confirmation.your_gifts')}</h3>
          <ul>
            {gifts.map((offer) => (
              <li key={offer.id}>{giftNotice(offer, t, locale)}</li>
            ))}
          </ul>
        </section>
      ) : null}
      <section className="confirmation__block" aria-labelledby="confirmation-items">
        <h3 id="confirmation-items">{t('confirmation.what_you_ordered')}</h3>
        <OrderLines cart={cart} editable={false} />
        <OrderTotals cart={cart} pending={false} />
      </section>
      {linked.length > 0 ? (
        <section className="confirmation__block" aria-labelledby="confirmation-also">
          <h3 id="confirmation-also">{t('confirmation.also_ordered')}</h3>
          <ul>
            {linked.map((order) => (
              <li key={order.order_id}>
                {t('confirmation.linked_order', {
                  number: order.order_id,
                  items: new Intl.ListFormat(language, { type: 'unit' }).format(
                    order.lines.map((line) =>
                      line.quantity > 1
                        ? t('confirmation.line_quantity', { item: line.item_name, quantity: line.quantity })
                        : line.item_name,
                    ),
                  ),
                  amount: amount(order.total),
                })}
              </li>
            ))}
          </ul>
          <p>
            <T
              id="confirmation.total_of_orders"
              values={{ amount: amount(totalOfAll(cart, linked)) }}
              components={[<strong key="amount" />]}
            />
          </p>
        </section>
      ) : null}
    </div>
  );
}
