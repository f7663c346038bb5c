import { useEffect, useRef, useState } from 'react';
import type { CartOffer } from '../../../contract/cart.js';
import { failureOf } from '../../api/http-client.js';
import { T, useT } from '../../i18n/use-t.js';
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
  const { t } = useT();
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<string | null>(null);
  const undoRef = useRef<HTMLButtonElement>(null);

  useEffect(() => {
    undoRef.current?.focus();
    announce(t('summary.removed_said', { item: offer.item_name }));
    // Said once, when the line goes: not again if the language changes meanwhile.
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, [offer, announce]);

  const undo = async () => {
    if (busy) return;
    setBusy(true);
    setError(null);
    try {
      setCart(await api.setQuantity(token, offer.order_offer_id, offer.order_offer_quantity));
      announce(t('summary.restored_said', { item: offer.item_name, quantity: offer.order_offer_quantity }));
      onRestored(offer);
    } catch (failure) {
      setError(failureOf(failure, t).message);
      setBusy(false);
    }
  };

  const errorId = `removed-${offer.order_offer_id}-error`;
  return (
    <li className="summary__line summary__line--removed">
      <p className="summary__removed-text">
        <T
          id="summary.removed"
          values={{ item: offer.item_name }}
          components={[<span className="summary__name" />]}
        />
      </p>
      <button
        type="button"
        className="button button--link"
        ref={undoRef}
        onClick={() => void undo()}
        disabled={busy}
        aria-label={t('summary.undo_label', { item: offer.item_name })}
        aria-describedby={error ? errorId : undefined}
      >
        {t('summary.undo')}
      </button>
      {error ? (
        <p className="field__error summary__removed-error" id={errorId} role="alert">
          {error}
        </p>
      ) : null}
    </li>
  );
}
