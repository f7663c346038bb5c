import { useEffect, useRef, useState } from 'react';
import type { CartOffer } from '../../../contract/cart.js';
import { failureOf } from '../../api/http-client.js';
import '../../ui/button.css';
import { useAnnounce } from '../../ui/live-region.js';
import { useCheckout } from '../checkout-context.js';

export interface RemovedLineProps {
  offer: CartOffer;
  /** the line is back in the cart (the cart already answered with it) */
  onRestored: (offer: CartOffer) => void;
}

/**
 * Where a removed line was: says so and offers Undo, which brings it back with its quantity. Takes the focus the
 * Remove button had (it went away with the line), and the removal is announced.
 */
export function RemovedLine({ offer, onRestored }: RemovedLineProps) {
  const { api, token, setCart } = useCheckout();
  const announce = useAnnounce();
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<string | null>(null);
  const undoRef = useRef<HTMLButtonElement>(null);

  useEffect(() => {
    undoRef.current?.focus();
    announce(`${offer.item_name} was removed from your order.`);
  }, [offer, announce]);

  const undo = async () => {
    if (busy) return;
    setBusy(true);
    setError(null);
    try {
      setCart(await api.setQuantity(token, offer.order_offer_id, offer.order_offer_quantity));
      announce(`${offer.item_name} is back in your order: quantity ${offer.order_offer_quantity}.`);
      onRestored(offer);
    } catch (failure) {
      setError(failureOf(failure).message);
      setBusy(false);
    }
  };

  const errorId = `removed-${offer.order_offer_id}-error`;
  return (
    <li className="summary__line summary__line--removed">
      <p className="summary__removed-text">
        <span className="summary__name">{offer.item_name}</span> removed.
      </p>
      <button
        type="button"
        className="button button--link"
        ref={undoRef}
        onClick={() => void undo()}
        disabled={busy}
        aria-label={`Undo: put ${offer.item_name} back`}
        aria-describedby={error ? errorId : undefined}
      >
        Undo
      </button>
      {error ? (
        <p className="field__error summary__removed-error" id={errorId} role="alert">
          {error}
        </p>
      ) : null}
    </li>
  );
}
