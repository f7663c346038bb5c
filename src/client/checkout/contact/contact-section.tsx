import { useT } from '../../i18n/use-t.js';
import { TextField } from '../../ui/text-field.js';
import { useCheckout } from '../checkout-context.js';
import { SectionForm } from '../section-form.js';
import type { SectionBodyProps } from '../section-props.js';
import { useSectionFields } from '../use-section-fields.js';
import { useSectionSubmit } from '../use-section-submit.js';

export function ContactSection({ continueLabel, onDone }: SectionBodyProps) {
  const { t } = useT();
  const { bind } = useSectionFields('ContactInformation');
  const { submit, summary, message } = useSectionSubmit('ContactInformation', onDone);
  return (
    <SectionForm
      onSubmit={() => void submit()}
      summary={summary}
      message={message}
      continueLabel={continueLabel}
    >
      <TextField
        {...bind('email')}
        label={t('checkout.contact.email')}
        type="email"
        inputMode="email"
        autoComplete="email"
        hint={t('checkout.contact.email_hint')}
        maxLength={254}
      />
      <TextField
        {...bind('phone')}
        label={t('checkout.contact.phone')}
        type="tel"
        autoComplete="tel"
        required={false}
        maxLength={40}
      />
    </SectionForm>
  );
}

export function ContactSummary() {
  const { form } = useCheckout();
  return (
    <p>
      {form.text.email}
      {form.text.phone ? ` · ${form.text.phone}` : ''}
    </p>
  );
}
