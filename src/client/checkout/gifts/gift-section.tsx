import { lazy, Suspense } from 'react';
import { useCheckout } from '../checkout-context.js';
import { longDate } from '../format.js';
import { giftFieldName } from '../form/checkout-form.js';
import type { SectionBodyProps } from '../section-props.js';
import { giftOffers } from '../section-rules.js';
import { useT } from '../../i18n/use-t.js';

// Only carts with gifts need the gift forms: they load on demand.
const GiftForms = lazy(() => import('./gift-forms.js'));

export function GiftSection(props: SectionBodyProps) {
  return (
    <Suspense fallback={<p role="status">Loading the gift details…</p>}>
      <GiftForms {...props} />
    </Suspense>
  );
}

export function GiftSummary() {
  const { cart, form } = useCheckout();
  const { language } = useT();
  return (
    <ul className="section__summary-list">
      {giftOffers(cart).map((offer) => {
        const id = offer.order_offer_id;
        const date = form.text[giftFieldName('gift_date', id)] ?? '';
        return (
          <li key={id}>
            {offer.item_name} for {form.text[giftFieldName('gift_name', id)]}
            {date ? `, told on ${longDate(date, language)}` : ''}
          </li>
        );
      })}
    </ul>
  );
}
