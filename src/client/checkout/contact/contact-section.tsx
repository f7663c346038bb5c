import { TextField } from '../../ui/text-field.js';
import { useCheckout } from '../checkout-context.js';
import { SectionForm } from '../section-form.js';
import type { SectionBodyProps } from '../section-props.js';
import { useSectionFields } from '../use-section-fields.js';
import { useSectionSubmit } from '../use-section-submit.js';

export function ContactSection({ continueLabel, onDone }: SectionBodyProps) {
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
        label="Email"
        type="email"
        inputMode="email"
        autoComplete="email"
        hint="For your receipt and order updates."
        maxLength={254}
      />
      <TextField
        {...bind('phone')}
        label="Phone"
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
