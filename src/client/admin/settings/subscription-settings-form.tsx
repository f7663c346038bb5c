// What happens around subscriptions (docs/operations.md, "Dunning"; docs/emails.md; docs/subscriptions.md): retries
// of a declined renewal, the reminder before each charge, and when a subscriber's own cancel takes effect.
import { useState } from 'react';
import type { Organization } from '../../../contract/merchant.js';
import { RadioGroup } from '../../ui/radio-group.js';
import { SelectField } from '../../ui/select-field.js';
import { TextField } from '../../ui/text-field.js';
import { listOfText, numberOrText, optionalNumber, textOfList } from './field-values.js';
import { SettingsForm } from './settings-form.js';

const FIELDS = [
  'dunning.retry_days',
  'dunning.after_last_retry',
  'subscription_emails.reminder_days_before',
  'self_service.cancel',
] as const;

const AFTER_LAST_RETRY = [
  { value: 'past_due', label: 'Mark it past due (it stays, without charges)' },
  { value: 'cancel', label: 'Cancel it' },
  { value: 'pause', label: 'Pause it' },
] as const;

export function SubscriptionSettingsForm({ organization }: { organization: Organization }) {
  const [retryDays, setRetryDays] = useState(textOfList(organization.dunning.retry_days));
  const [afterLast, setAfterLast] = useState<string>(organization.dunning.after_last_retry);
  const [reminder, setReminder] = useState(
    String(organization.subscription_emails.reminder_days_before ?? ''),
  );
  const [cancel, setCancel] = useState<string>(organization.self_service.cancel);
  return (
    <SettingsForm
      id="subscriptions"
      title="Subscriptions"
      fieldNames={FIELDS}
      patch={() => ({
        dunning: { retry_days: listOfText(retryDays).map(numberOrText), after_last_retry: afterLast },
        subscription_emails: { reminder_days_before: optionalNumber(reminder) },
        self_service: { cancel },
      })}
    >
      {(errors) => (
        <>
          <TextField
            name="dunning.retry_days"
            label="Retries of a declined renewal (days)"
            hint="After each decline the next retry waits the next number of days: “1, 3, 7” retries 1 day after the first decline, 3 days after the second and 7 after the third. Up to 8 retries of 1 to 60 days; empty for none."
            autoComplete="off"
            value={retryDays}
            onChange={setRetryDays}
            error={errors['dunning.retry_days']}
            required={false}
          />
          <SelectField
            name="dunning.after_last_retry"
            label="After the last retry, or a decline that cannot succeed"
            autoComplete="off"
            value={afterLast}
            options={AFTER_LAST_RETRY}
            onChange={setAfterLast}
            error={errors['dunning.after_last_retry']}
          />
          <TextField
            name="subscription_emails.reminder_days_before"
            label="Reminder before each renewal (days before)"
            hint="The subscriber is emailed this many days (1 to 30) before each renewal charge. Leave it empty to send no reminder."
            autoComplete="off"
            inputMode="numeric"
            value={reminder}
            onChange={setReminder}
            error={errors['subscription_emails.reminder_days_before']}
            required={false}
          />
          <RadioGroup
            name="self_service.cancel"
            legend="When a subscriber cancels on their self-service page"
            value={cancel}
            choices={[
              { value: 'end_of_period', label: 'It ends when the period already paid for ends' },
              { value: 'immediately', label: 'It ends at once' },
            ]}
            onChange={setCancel}
            error={errors['self_service.cancel']}
          />
        </>
      )}
    </SettingsForm>
  );
}
