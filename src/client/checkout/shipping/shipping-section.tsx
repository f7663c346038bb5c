import { Checkbox } from '../../ui/checkbox.js';
import { RadioGroup } from '../../ui/radio-group.js';
import { useCheckout } from '../checkout-context.js';
import { money } from '../format.js';
import { SectionForm } from '../section-form.js';
import type { SectionBodyProps } from '../section-props.js';
import { useSectionFields } from '../use-section-fields.js';
import { useSectionSubmit } from '../use-section-submit.js';
import { AddressFields } from './address-fields.js';
import { useT } from '../../i18n/use-t.js';

export interface ShippingSectionProps extends SectionBodyProps {
  /** a message from the preview ("Express does not ship to Canada: Standard was chosen") */
  previewNotice: string | null;
  previewPending: boolean;
}

export function ShippingSection({
  continueLabel,
  onDone,
  previewNotice,
  previewPending,
}: ShippingSectionProps) {
  const { cart, form, dispatchForm, express } = useCheckout();
  const { t, locale } = useT();
  const { bind } = useSectionFields('ShippingAddress');
  const { submit, summary, message } = useSectionSubmit('ShippingAddress', onDone);
  const profiles = cart.order.shipping_profiles;
  const profile = bind('shipping_profile_id');
  // Billing is asked for only when something is paid: the box means nothing on a free order or a gift claim.
  const paymentDue = cart.total > 0 || cart.order.is_recurring;
  return (
    <SectionForm
      onSubmit={() => void submit()}
      summary={summary}
      message={message}
      continueLabel={continueLabel}
    >
      <AddressFields prefix="ship" bind={bind} />
      {profiles.length > 0 ? (
        <RadioGroup
          name="shipping_profile_id"
          legend="Shipping method"
          value={profile.value}
          error={profile.error}
          onChange={profile.onChange}
          choices={profiles.map((option) => ({
            value: option.shipping_profile_id,
            label: option.name,
            detail: option.price === 0 ? t('summary.free') : money(option.price, cart.currency_value, locale),
          }))}
        />
      ) : previewPending || !form.text.ship_country ? (
        <p className="section-form__note" aria-live="polite">
          {previewPending ? t('checkout.shipping_finding') : t('checkout.shipping_choose_country')}
        </p>
      ) : null}
      {previewNotice ? (
        <p className="notice notice--info" role="status">
          {previewNotice}
        </p>
      ) : null}
      {express.status !== 'active' && paymentDue ? (
        <Checkbox
          name="same_address"
          label={t('checkout.same_address')}
          checked={form.sameAddress}
          onChange={(value) => dispatchForm({ type: 'setSameAddress', value })}
        />
      ) : null}
    </SectionForm>
  );
}
