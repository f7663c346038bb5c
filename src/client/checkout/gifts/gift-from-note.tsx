import type { Cart } from '../../../contract/cart.js';
import { useT } from '../../i18n/use-t.js';
import './gift-from-note.css';

/** At the top of a gift recipient's claim: who the gift is from, and what they wrote. */
export function GiftFromNote({ from }: { from: NonNullable<Cart['order']['gift_from']> }) {
  const { t } = useT();
  return (
    <section className="gift-note" aria-labelledby="gift-note-heading">
      <h2 className="gift-note__heading" id="gift-note-heading">
        {from.name ? t('gifts.from', { name: from.name }) : t('gifts.for_you')}
      </h2>
      {from.message ? (
        <figure className="gift-note__message">
          <blockquote>
            <p>{from.message}</p>
          </blockquote>
          {from.name ? <figcaption>{from.name}</figcaption> : null}
        </figure>
      ) : null}
    </section>
  );
}
