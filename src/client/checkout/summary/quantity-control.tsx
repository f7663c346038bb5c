import { useState } from 'react';
import type { CartOffer } from '../../../contract/cart.js';
import { failureOf } from '../../api/http-client.js';
import { useAnnounce } from '../../ui/live-region.js';
import { useCheckout } from '../checkout-context.js';

const MIN = 1;
const MAX = 99;

/** − quantity + for one line; only rendered when the cart is editable. */
export function QuantityControl({ offer }: { offer: CartOffer }) {
  const { api, token, setCart } = useCheckout();
  const announce = useAnnounce();
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<string | null>(null);
  const quantity = offer.order_offer_quantity;

  const change = async (next: number) => {
    if (next < MIN || next > MAX || busy) return;
    setBusy(true);
    setError(null);
    try {
      const cart = await api.setQuantity(token, offer.order_offer_id, next);
      setCart(cart);
      announce(`${offer.item_name}: quantity ${next}.`);
    } catch (failure) {
      setError(failureOf(failure).message);
    } finally {
      setBusy(false);
    }
  };

  const errorId = `quantity-${offer.order_offer_id}-error`;
  return (
    <div className="quantity">
      <div className="quantity__controls" role="group" aria-label={`Quantity of ${offer.item_name}`}>
        <button
          type="button"
          className="quantity__button"
          onClick={() => void change(quantity - 1)}
          disabled={busy || quantity <= MIN}
          aria-label={`Decrease quantity of ${offer.item_name}`}
        >
          −
        </button>
        <span className="quantity__value" aria-live="off">
          {quantity}
        </span>
        <button
          type="button"
          className="quantity__button"
          onClick={() => void change(quantity + 1)}
          disabled={busy || quantity >= MAX}
          aria-label={`Increase quantity of ${offer.item_name}`}
          aria-describedby={error ? errorId : undefined}
        >
          +
        </button>
      </div>
      {error ? (
        <p className="field__error" id={errorId} role="alert">
          {error}
        </p>
      ) : null}
    </div>
  );
}
