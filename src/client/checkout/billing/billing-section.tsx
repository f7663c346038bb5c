import { ADDRESS_FIELDS } from '../../../contract/address-fields.js';
import { Button } from '../../ui/button.js';
import { useCheckout } from '../checkout-context.js';
import { SectionForm } from '../section-form.js';
import type { SectionBodyProps } from '../section-props.js';
import { AddressFields } from '../shipping/address-fields.js';
import { useSectionFields } from '../use-section-fields.js';
import { useSectionSubmit } from '../use-section-submit.js';
import { useT } from '../../i18n/use-t.js';

export function BillingSection({ continueLabel, onDone }: SectionBodyProps) {
  const { t } = useT();
  const { cart, form, dispatchForm } = useCheckout();
  const { bind } = useSectionFields('BillingAddress');
  const { submit, summary, message } = useSectionSubmit('BillingAddress', onDone);
  const shipsSomething = cart.order.shipping_information_required;
  return (
    <SectionForm
      onSubmit={() => void submit()}
      summary={summary}
      message={message}
      continueLabel={continueLabel}
    >
      {shipsSomething ? (
        <Button
          variant="link"
          className="section-form__aside"
          onClick={() => {
            const copy = ADDRESS_FIELDS.map((field) => [`bill_${field}`, form.text[`ship_${field}`] ?? '']);
            dispatchForm({ type: 'setMany', values: Object.fromEntries(copy) });
          }}
        >
          {t('checkout.copy_shipping_address')}
        </Button>
      ) : null}
      <AddressFields prefix="bill" bind={bind} />
    </SectionForm>
  );
}
