// The abandoned-checkout reminder (docs/emails.md, "Abandoned checkout").
import { useState } from 'react';
import type { Organization } from '../../../contract/merchant.js';
import { Checkbox } from '../../ui/checkbox.js';
import { TextField } from '../../ui/text-field.js';
import { numberOrText } from './field-values.js';
import { SettingsForm } from './settings-form.js';

const FIELDS = ['abandoned_checkout.enabled', 'abandoned_checkout.after_minutes'] as const;

export function AbandonedCheckoutForm({ organization }: { organization: Organization }) {
  const [enabled, setEnabled] = useState(organization.abandoned_checkout.enabled);
  const [minutes, setMinutes] = useState(String(organization.abandoned_checkout.after_minutes));
  return (
    <SettingsForm
      id="abandoned"
      title="Abandoned checkout reminder"
      intro="One email to a shopper who gave their email and agreed to emails, but did not place the order."
      fieldNames={FIELDS}
      patch={() => ({ abandoned_checkout: { enabled, after_minutes: numberOrText(minutes) } })}
    >
      {(errors) => (
        <>
          <Checkbox
            name="abandoned_checkout.enabled"
            label="Send the reminder"
            checked={enabled}
            onChange={setEnabled}
            error={errors['abandoned_checkout.enabled']}
          />
          <TextField
            name="abandoned_checkout.after_minutes"
            label="Minutes after the shopper left"
            hint="5 to 10,080 (a week)."
            autoComplete="off"
            inputMode="numeric"
            value={minutes}
            onChange={setMinutes}
            error={errors['abandoned_checkout.after_minutes']}
          />
        </>
      )}
    </SettingsForm>
  );
}
