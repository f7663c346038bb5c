import { useState } from 'react';
import type { Cart, CartOffer } from '../../../contract/cart.js';
import { failureOf } from '../../api/http-client.js';
import { RadioGroup } from '../../ui/radio-group.js';
import { useAnnounce } from '../../ui/live-region.js';
import { useCheckout } from '../checkout-context.js';
import { money } from '../format.js';
import './subscribe-choice.css';
import { useT } from '../../i18n/use-t.js';

export interface SubscribeChoiceProps {
  offer: CartOffer;
  currency: string;
  /** the shopper may still change it (the order is not paid nor handed to an express payment) */
  choosable: boolean;
}

/** What the choice is called, in the words the radio rows and the announcement use. */
function subscribeWords(terms: NonNullable<CartOffer['subscribe_and_save']>): string {
  return `Subscribe every ${terms.interval_days} days and save ${terms.percent_off} %`;
}

/**
 * Buy once or subscribe and save, for one line whose offer allows it: the choice while the order is open, else (the
 * confirmation, outside the checkout's provider) what was chosen.
 */
export default function SubscribeChoice({ offer, currency, choosable }: SubscribeChoiceProps) {
  const terms = offer.subscribe_and_save;
  if (!terms) return null;
  if (!choosable) {
    return offer.subscribed ? (
      <p className="summary__tag">
        Subscribed: every {terms.interval_days} days, {terms.percent_off} % off
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
  const { language } = useT();
  const announce = useAnnounce();
  const [pending, setPending] = useState<boolean | null>(null);
  const [error, setError] = useState<string | undefined>(undefined);
  const each = offer.order_offer_quantity > 1 ? ' each' : '';

  const choose = async (subscribe: boolean) => {
    if (pending !== null || subscribe === offer.subscribed) return;
    setPending(subscribe);
    setError(undefined);
    try {
      const cart: Cart = await api.setSubscribed(token, offer.order_offer_id, subscribe);
      setCart(cart);
      const total = money(cart.total, cart.currency_value, language);
      announce(
        subscribe
          ? `${offer.item_name}: subscribed every ${terms.interval_days} days at ${money(terms.subscribe_price, currency, language)}${each}. Total today ${total}.`
          : `${offer.item_name}: bought once at ${money(terms.once_price, currency, language)}${each}. Total ${total}.`,
      );
    } catch (failure) {
      setError(failureOf(failure).message);
    } finally {
      setPending(null);
    }
  };

  return (
    <div className="subscribe-choice" aria-busy={pending !== null}>
      <RadioGroup
        name={`subscribe-${offer.order_offer_id}`}
        legend={`How to buy ${offer.item_name}`}
        value={(pending ?? offer.subscribed) ? 'subscribe' : 'once'}
        choices={[
          {
            value: 'once',
            label: 'Buy once',
            detail: `${money(terms.once_price, currency, language)}${each}`,
          },
          {
            value: 'subscribe',
            label: subscribeWords(terms),
            detail: `${money(terms.subscribe_price, currency, language)}${each}`,
          },
        ]}
        onChange={(value) => void choose(value === 'subscribe')}
        error={error}
      />
    </div>
  );
}
