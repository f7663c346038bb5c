// The recurring offer's plan (docs/subscriptions.md): its interval, prices by cycle and prepaid periods.
import type { OfferFormValues } from './offer-form-values.js';
import { SelectField } from '../../ui/select-field.js';
import { TextField } from '../../ui/text-field.js';

const PREPAID_RENEWALS = [
  { value: 'renew', label: 'Charge the next prepaid period' },
  { value: 'end', label: 'End after the last cycle' },
] as const;

type SetValue = <K extends keyof OfferFormValues>(key: K) => (value: OfferFormValues[K]) => void;

export function RecurringPlanFields({
  values,
  set,
  fields,
  currency,
}: {
  values: OfferFormValues;
  set: SetValue;
  fields: Record<string, string>;
  currency: string;
}) {
  return (
    <div className="admin-grid">
      <TextField
        name="billing_interval_days"
        label="Days between charges"
        inputMode="numeric"
        autoComplete="off"
        value={values.billing_interval_days}
        onChange={set('billing_interval_days')}
        error={fields.billing_interval_days}
      />
      <TextField
        name="next_price"
        label={`Later price (${currency})`}
        required={false}
        hint="Each charge after the first; empty for the same price."
        inputMode="decimal"
        autoComplete="off"
        value={values.next_price}
        onChange={set('next_price')}
        error={fields.next_price}
      />
      <TextField
        name="trial_days"
        label="Trial days"
        required={false}
        hint="How long the first cycle lasts when it differs; it is charged the price above (0 for a free trial)."
        inputMode="numeric"
        autoComplete="off"
        value={values.trial_days}
        onChange={set('trial_days')}
        error={fields.trial_days}
      />
      <TextField
        name="discounted_cycles"
        label="Discounted cycles"
        required={false}
        hint="How many charges after the first are at the discounted price; empty for none."
        inputMode="numeric"
        autoComplete="off"
        value={values.discounted_cycles}
        onChange={set('discounted_cycles')}
        error={fields.discounted_cycles}
      />
      <TextField
        name="discounted_price"
        label={`Discounted price (${currency})`}
        required={false}
        hint="The price of each discounted cycle."
        inputMode="decimal"
        autoComplete="off"
        value={values.discounted_price}
        onChange={set('discounted_price')}
        error={fields.discounted_price}
      />
      <TextField
        name="total_cycles"
        label="Cycles in all"
        required={false}
        hint="The subscription ends after this many charges, the first included; empty until cancelled."
        inputMode="numeric"
        autoComplete="off"
        value={values.total_cycles}
        onChange={set('total_cycles')}
        error={fields.total_cycles}
      />
      <TextField
        name="prepaid_cycles"
        label="Prepaid cycles"
        required={false}
        hint="One payment of the price covers this many cycles (2 to 24), each later one shipped as a $0 order; empty when not prepaid."
        inputMode="numeric"
        autoComplete="off"
        value={values.prepaid_cycles}
        onChange={set('prepaid_cycles')}
        error={fields.prepaid_cycles}
      />
      <SelectField
        name="prepaid_renewal"
        label="When the prepaid period ends"
        autoComplete="off"
        value={values.prepaid_renewal}
        options={PREPAID_RENEWALS}
        onChange={(value) => set('prepaid_renewal')(value === 'end' ? 'end' : 'renew')}
        error={fields.prepaid_renewal}
      />
    </div>
  );
}
