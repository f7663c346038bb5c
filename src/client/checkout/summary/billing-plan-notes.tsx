import type { Cart } from '../../../contract/cart.js';
import { useT } from '../../i18n/use-t.js';
import { money } from '../format.js';
import './billing-plan-notes.css';

export interface BillingPlanNotesProps {
  cart: Cart;
  /** summary: the row under the total; terms: the words beside the subscription-terms box */
  place: 'summary' | 'terms';
  /** the terms words' element id, for the box to name them as its description */
  id?: string;
}

/**
 * What each subscription of the cart charges today and after, in the server's words (billing_plan.description):
 * the page computes no amount (docs/checkout-rules.md, "Prices by cycle").
 */
export default function BillingPlanNotes({ cart, place, id }: BillingPlanNotesProps) {
  const { t, locale } = useT();
  const plans = cart.offers.flatMap((offer) =>
    offer.is_recurring && !offer.is_gift && offer.billing_plan
      ? [{ id: offer.id, name: offer.item_name, words: offer.billing_plan.description }]
      : [],
  );
  if (plans.length === 0) return null;
  const list = (
    <ul className="billing-plans">
      {plans.map((plan) => (
        <li key={plan.id}>{t('summary.plan_line', { item: plan.name, description: plan.words })}</li>
      ))}
    </ul>
  );
  if (place === 'terms') {
    return (
      <div className="billing-plans__terms" id={id}>
        <p className="billing-plans__terms">{t('summary.plans_agree')}</p>
        {list}
      </div>
    );
  }
  return (
    <div className="summary__row summary__row--schedule">
      <dt className="visually-hidden">{t('summary.subscription')}</dt>
      <dd>
        {t('summary.today_in_all', { amount: money(cart.total, cart.currency_value, locale) })}
        {list}
      </dd>
    </div>
  );
}
