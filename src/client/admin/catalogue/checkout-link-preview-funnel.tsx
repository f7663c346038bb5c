// The link preview's order bumps and offers after the purchase (docs/api.md, "Checkout link preview"), as the server
// priced them; nothing here computes an amount.
import type {
  CheckoutLinkPreview,
  CheckoutLinkPreviewUpsellOffer,
} from '../../../contract/checkout-link-preview.js';
import { formatMoney } from '../kit/format.js';
import { intervalText } from './catalogue-words.js';

const BUMPS_FROM = {
  link: 'This link’s own order bumps, shown as unticked boxes above the pay button:',
  organization:
    'The link names no order bumps, so the store’s default bumps are shown, unticked, above the pay button:',
  none: 'No order bump is shown: neither this link nor the store names one that can be shown.',
} as const;

export function PreviewBumps({ data }: { data: CheckoutLinkPreview }) {
  const money = (amount: number) => formatMoney(amount, data.currency);
  return (
    <section aria-labelledby="preview-bumps" className="admin-stack">
      <h3 id="preview-bumps">Order bumps</h3>
      <p>{BUMPS_FROM[data.bumps_from]}</p>
      {data.bumps.length > 0 ? (
        <ul className="catalogue-offers">
          {data.bumps.map((bump) => (
            <li key={bump.offer_id} className="catalogue-offer">
              {bump.item_image ? <img className="catalogue-thumb" src={bump.item_image} alt="" /> : null}
              <div>
                <p className="catalogue-offer__text">{bump.text}</p>
                <p className="catalogue-muted">
                  {bump.item_name} ({bump.offer_name}): adds {money(bump.price)}
                  {bump.is_recurring && bump.billing_interval_days !== null && bump.next_price !== null
                    ? `, then ${money(bump.next_price)} ${intervalText(bump.billing_interval_days)}`
                    : ''}
                </p>
              </div>
            </li>
          ))}
        </ul>
      ) : null}
    </section>
  );
}

function UpsellOffer(props: { offer: CheckoutLinkPreviewUpsellOffer; currency: string; role: string }) {
  const { offer, currency } = props;
  const money = (amount: number) => formatMoney(amount, currency);
  return (
    <div className="catalogue-offer">
      {offer.item_image ? <img className="catalogue-thumb" src={offer.item_image} alt="" /> : null}
      <div>
        <p>
          <span className="admin-badge">{props.role}</span> <strong>{offer.item_name}</strong> (
          {offer.offer_name})
        </p>
        {offer.text ? <p className="catalogue-offer__text">{offer.text}</p> : null}
        <p className="catalogue-muted">
          {money(offer.amount)}
          {offer.shipping > 0 ? ` (${money(offer.subtotal)} and ${money(offer.shipping)} shipping)` : ''}
          {offer.recurring
            ? `, then ${money(offer.recurring.amount)} ${intervalText(offer.recurring.interval_days)}`
            : ''}
          , before tax
        </p>
        {offer.active ? null : (
          <p className="catalogue-warning">Its offer is not active, so the shopper is not shown it.</p>
        )}
      </div>
    </div>
  );
}

export function PreviewUpsells({ data }: { data: CheckoutLinkPreview }) {
  return (
    <section aria-labelledby="preview-upsells" className="admin-stack">
      <h3 id="preview-upsells">Offers after the purchase</h3>
      {data.upsells.length === 0 ? (
        <p>None: the order’s confirmation follows the payment.</p>
      ) : (
        <>
          <p>
            Shown one at a time once a card order is placed, each charged with one click as an order of its
            own; a declined offer is followed by its downsell, if it has one.
          </p>
          <ol className="catalogue-upsells">
            {data.upsells.map((step) => (
              <li key={step.step}>
                <UpsellOffer offer={step.offer} currency={data.currency} role={`Offer ${step.step}`} />
                {step.downsell ? (
                  <UpsellOffer
                    offer={step.downsell}
                    currency={data.currency}
                    role={`If declined: downsell ${step.step}`}
                  />
                ) : (
                  <p className="catalogue-muted">If declined: no downsell.</p>
                )}
              </li>
            ))}
          </ol>
        </>
      )}
    </section>
  );
}
