// The store's default order bumps (docs/checkout-rules.md, "Order bumps"): shown on a checkout whose link names none.
import { useState } from 'react';
import type { Organization } from '../../../contract/merchant.js';
import { MAX_BUMP_OFFERS } from '../../../domain/order-bumps.js';
import { SelectField } from '../../ui/select-field.js';
import { useAllOffers } from '../catalogue/use-all-offers.js';
import { SettingsForm } from './settings-form.js';

const SLOTS = Array.from({ length: MAX_BUMP_OFFERS }, (_, i) => i);
const FIELDS = ['bump_offer_ids', ...SLOTS.map((i) => `bump_offer_ids.${i}`)] as const;

/** The chosen offers in order; a slot left on "None" names nothing. */
export function defaultBumpsPatch(slots: readonly string[]): { bump_offer_ids: number[] } {
  return { bump_offer_ids: slots.filter((id) => id !== '').map(Number) };
}

export function OrderBumpsForm({ organization }: { organization: Organization }) {
  const offers = useAllOffers();
  const [slots, setSlots] = useState(() =>
    SLOTS.map((i) =>
      organization.bump_offer_ids[i] === undefined ? '' : String(organization.bump_offer_ids[i]),
    ),
  );
  const choices = (offers.data?.data ?? []).map((offer) => ({
    value: String(offer.id),
    label: `${offer.offer_name} (${offer.item_name})${offer.active ? '' : ', inactive'}`,
  }));
  return (
    <SettingsForm
      id="order-bumps"
      title="Default order bumps"
      intro={`Up to ${MAX_BUMP_OFFERS} offers shown as boxes above the pay button of a checkout whose link names no bumps of its own (and of carts made through the API); ticking one adds it to the order.`}
      fieldNames={FIELDS}
      patch={() => defaultBumpsPatch(slots)}
    >
      {(errors) => (
        <>
          {SLOTS.map((i) => (
            <SelectField
              key={i}
              name={`bump_offer_ids.${i}`}
              label={`Default bump ${i + 1}`}
              autoComplete="off"
              placeholder="None"
              options={choices}
              value={slots[i] ?? ''}
              onChange={(value) => setSlots((current) => current.map((id, at) => (at === i ? value : id)))}
              error={errors[`bump_offer_ids.${i}`] ?? (i === 0 ? errors.bump_offer_ids : undefined)}
            />
          ))}
        </>
      )}
    </SettingsForm>
  );
}
