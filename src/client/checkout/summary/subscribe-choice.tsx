import { useState } from 'react';
import type { Cart, CartOffer } from '../../../contract/cart.js';
import { failureOf } from '../../api/http-client.js';
import { useT, type Translate } from '../../i18n/use-t.js';
import { RadioGroup } from '../../ui/radio-group.js';
import { useAnnounce } from '../../ui/live-region.js';
import { useCheckout } from '../checkout-context.js';
import { money } from '../format.js';
import './subscribe-choice.css';

export interface SubscribeChoiceProps {
  offer: CartOffer;
  currency: string;
  /** the shopper may still change it (the order is not paid nor handed to an express payment) */
  choosable: boolean;
}

/** What the choice is called, in the words the radio rows and the announcement use. */
function subscribeWords(terms: NonNullable<CartOffer['subscribe_and_save']>, t: Translate): string {
  return t('summary.subscribe_every', { days: terms.interval_days, percent: terms.percent_off });
}

/**
 * Buy once or subscribe and save, for one line whose offer allows it: the choice while the order is open, else (the
 * confirmation, outside the checkout's provider) what was chosen.
 */
export default function SubscribeChoice({ offer, currency, choosable }: SubscribeChoiceProps) {
  const { t } = useT();
  const terms = offer.subscribe_and_save;
  if (!terms) return null;
  if (!choosable) {
    return offer.subscribed ? (
      <p className="summary__tag">
        {t('summary.subscribed_every', { days: terms.interval_days, percent: terms.percent_off })}
      </p>
    ) : null;
  }
  return <ChoiceGroup offer={offer} currency={currency} terms={terms} />;
}

/**
 * The choice as a radio group. The server prices it (PUT carts/{token}/subscribe): the line, the totals, the sections
 * and the terms box follow its answer; the live region says the choice and the new total.
 */
function ChoiceGroup({
  offer,
  currency,
  terms,
}: {
  offer: CartOffer;
  currency: string;
  terms: NonNullable<CartOffer['subscribe_and_save']>;
}) {
  const { api, token, setCart } = useCheckout();
  const { t, locale } = useT();
  const announce = useAnnounce();
  const [pending, setPending] = useState<boolean | null>(null);
  const [error, setError] = useState<string | undefined>(undefined);
  const quantity = offer.order_offer_quantity;
  const priced = (price: number) =>
    t('summary.price_each', { quantity, price: money(price, currency, locale) });

  const choose = async (subscribe: boolean) => {
    if (pending !== null || subscribe === offer.subscribed) return;
    setPending(subscribe);
    setError(undefined);
    try {
      const cart: Cart = await api.setSubscribed(token, offer.order_offer_id, subscribe);
      setCart(cart);
      const total = money(cart.total, cart.currency_value, locale);
      const item = offer.item_name;
      announce(
        subscribe
          ? t('summary.subscribed_said', {
              item,
              quantity,
              days: terms.interval_days,
              price: money(terms.subscribe_price, currency, locale),
              total,
            })
          : t('summary.bought_once_said', {
              item,
              quantity,
              price: money(terms.once_price, currency, locale),
              total,
            }),
      );
    } catch (failure) {
      setError(failureOf(failure, t).message);
    } finally {
      setPending(null);
    }
  };

  return (
    <div className="subscribe-choice" aria-busy={pending !== null}>
      <RadioGroup
        name={`subscribe-${offer.order_offer_id}`}
        legend={t('summary.how_to_buy', { item: offer.item_name })}
        value={(pending ?? offer.subscribed) ? 'subscribe' : 'once'}
        choices={[
          { value: 'once', label: t('summary.buy_once'), detail: priced(terms.once_price) },
          { value: 'subscribe', label: subscribeWords(terms, t), detail: priced(terms.subscribe_price) },
        ]}
        onChange={(value) => void choose(value === 'subscribe')}
        error={error}
      />
    </div>
  );
}
