import { lazy, Suspense } from 'react';
import type { Language } from '../../../i18n/languages.js';
import { useT } from '../../i18n/use-t.js';
import { useCheckout } from '../checkout-context.js';
import { giftFieldName } from '../form/checkout-form.js';
import type { SectionBodyProps } from '../section-props.js';
import { giftOffers } from '../section-rules.js';

// Only carts with gifts need the gift forms: they load on demand.
const GiftForms = lazy(() => import('./gift-forms.js'));

export function GiftSection(props: SectionBodyProps) {
  const { t } = useT();
  return (
    <Suspense fallback={<p role="status">{t('gifts.loading')}</p>}>
      <GiftForms {...props} />
    </Suspense>
  );
}

/** "2026-12-24" as the page's language writes a date ("December 24, 2026", "24 de diciembre de 2026"). */
function noticeDate(isoDate: string, language: Language): string {
  const [year, month, day] = isoDate.slice(0, 10).split('-').map(Number);
  if (!year || !month || !day) return isoDate;
  return new Intl.DateTimeFormat(language, { dateStyle: 'long' }).format(new Date(year, month - 1, day));
}

export function GiftSummary() {
  const { cart, form } = useCheckout();
  const { t, language } = useT();
  return (
    <ul className="section__summary-list">
      {giftOffers(cart).map((offer) => {
        const id = offer.order_offer_id;
        const date = form.text[giftFieldName('gift_date', id)] ?? '';
        const values = { item: offer.item_name, name: form.text[giftFieldName('gift_name', id)] ?? '' };
        return (
          <li key={id}>
            {date
              ? t('gifts.summary_line_dated', { ...values, date: noticeDate(date, language) })
              : t('gifts.summary_line', values)}
          </li>
        );
      })}
    </ul>
  );
}
