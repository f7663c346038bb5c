import { useState } from 'react';
import type { CartOffer } from '../../../contract/cart.js';
import { MAX_LINE_QUANTITY } from '../../../domain/editable-cart.js';
import { failureOf } from '../../api/http-client.js';
import { useT } from '../../i18n/use-t.js';
import { Button } from '../../ui/button.js';
import { useAnnounce } from '../../ui/live-region.js';
import { useCheckout } from '../checkout-context.js';

const MIN = 1;

export const removeButtonId = (orderOfferId: number) => `remove-line-${orderOfferId}`;

export interface QuantityControlProps {
  offer: CartOffer;
  /** offers Remove (another line stays in the cart) */
  removable: boolean;
  /** the line was removed (the cart already answered without it) */
  onRemoved: (offer: CartOffer) => void;
}

/** − quantity + for one line, and Remove while another line stays; only rendered when the cart is editable. */
export function QuantityControl({ offer, removable, onRemoved }: QuantityControlProps) {
  const { api, token, setCart } = useCheckout();
  const announce = useAnnounce();
  const { t } = useT();
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<string | null>(null);
  const quantity = offer.order_offer_quantity;

  const change = async (next: number) => {
    if (next < 0 || next > MAX_LINE_QUANTITY || busy) return;
    setBusy(true);
    setError(null);
    try {
      // The server removes a line for quantity 0 and keeps it for Undo (docs/api.md, the quantity route).
      const cart = await api.setQuantity(token, offer.order_offer_id, next);
      setCart(cart);
      if (next === 0) onRemoved(offer);
      else announce(t('summary.quantity_said', { item: offer.item_name, quantity: next }));
    } catch (failure) {
      setError(failureOf(failure, t).message);
    } finally {
      setBusy(false);
    }
  };

  const errorId = `quantity-${offer.order_offer_id}-error`;
  return (
    <div className="quantity">
      <div
        className="quantity__controls"
        role="group"
        aria-label={t('summary.quantity_of', { item: offer.item_name })}
      >
        <button
          type="button"
          className="quantity__button"
          onClick={() => void change(quantity - 1)}
          disabled={busy || quantity <= MIN}
          aria-label={t('summary.decrease', { item: offer.item_name })}
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
          disabled={busy || quantity >= MAX_LINE_QUANTITY}
          aria-label={t('summary.increase', { item: offer.item_name })}
          aria-describedby={error ? errorId : undefined}
        >
          +
        </button>
      </div>
      {removable ? (
        <Button
          variant="link"
          className="quantity__remove"
          id={removeButtonId(offer.order_offer_id)}
          onClick={() => void change(0)}
          disabled={busy}
          aria-label={t('summary.remove_item', { item: offer.item_name })}
          aria-describedby={error ? errorId : undefined}
        >
          {t('summary.remove')}
        </Button>
      ) : null}
      {error ? (
        <p className="field__error" id={errorId} role="alert">
          {error}
        </p>
      ) : null}
    </div>
  );
}
