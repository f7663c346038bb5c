// The checkout page's client options (docs/checkout-rules.md, "Client options"), each explained where it is set.
import { useState } from 'react';
import type { Organization } from '../../../contract/merchant.js';
import { Checkbox } from '../../ui/checkbox.js';
import { SelectField } from '../../ui/select-field.js';
import { TextField } from '../../ui/text-field.js';
import { cardListOf, textOfList } from './field-values.js';
import { SettingsForm } from './settings-form.js';

const FIELDS = [
  'client_options.cart.editable.value',
  'client_options.cart.editable.override',
  'client_options.testCards',
  'client_options.subscriptionTermsCheckbox.display',
  'client_options.subscriptionTermsCheckbox.autoChecked',
  'client_options.emailOptInCheckbox.display',
  'client_options.emailOptInCheckbox.autoChecked',
] as const;

const OVERRIDES = [
  { value: 'none', label: 'No override: follow the setting above' },
  { value: 'true', label: 'Editable, whatever the setting above says' },
  { value: 'false', label: 'Not editable, whatever the setting above says' },
] as const;

type Box = { display: boolean; autoChecked: boolean };

function BoxOption(props: {
  name: 'subscriptionTermsCheckbox' | 'emailOptInCheckbox';
  legend: string;
  hint: string;
  showLabel: string;
  value: Box;
  onChange: (value: Box) => void;
  errors: Record<string, string>;
}) {
  const base = `client_options.${props.name}`;
  return (
    <fieldset className="settings-group" aria-describedby={`${props.name}-hint`}>
      <legend className="field__label">{props.legend}</legend>
      <p className="field__hint" id={`${props.name}-hint`}>
        {props.hint}
      </p>
      <Checkbox
        name={`${base}.display`}
        label={props.showLabel}
        checked={props.value.display}
        onChange={(display) => props.onChange({ ...props.value, display })}
        error={props.errors[`${base}.display`]}
      />
      <Checkbox
        name={`${base}.autoChecked`}
        label="It starts ticked"
        checked={props.value.autoChecked}
        onChange={(autoChecked) => props.onChange({ ...props.value, autoChecked })}
        error={props.errors[`${base}.autoChecked`]}
      />
    </fieldset>
  );
}

export function CheckoutOptionsForm({ organization }: { organization: Organization }) {
  const options = organization.client_options;
  const [editable, setEditable] = useState(options.cart.editable.value);
  const [override, setOverride] = useState(
    options.cart.editable.override === null ? 'none' : String(options.cart.editable.override),
  );
  const [testCards, setTestCards] = useState(textOfList(options.testCards));
  const [terms, setTerms] = useState<Box>(options.subscriptionTermsCheckbox);
  const [optIn, setOptIn] = useState<Box>(options.emailOptInCheckbox);
  return (
    <SettingsForm
      id="checkout-options"
      title="Checkout options"
      fieldNames={FIELDS}
      patch={() => ({
        client_options: {
          cart: { editable: { value: editable, override: override === 'none' ? null : override === 'true' } },
          testCards: cardListOf(testCards),
          subscriptionTermsCheckbox: terms,
          emailOptInCheckbox: optIn,
        },
      })}
    >
      {(errors) => (
        <>
          <fieldset className="settings-group" aria-describedby="cart-editable-hint">
            <legend className="field__label">Editable cart</legend>
            <p className="field__hint" id="cart-editable-hint">
              When the cart is editable, shoppers can change quantities (1 to 99) and remove lines on the
              checkout, keeping at least one. A gift claim, or a cart whose order is paid, never is.
            </p>
            <Checkbox
              name="client_options.cart.editable.value"
              label="Shoppers may change their cart"
              checked={editable}
              onChange={setEditable}
              error={errors['client_options.cart.editable.value']}
            />
            <SelectField
              name="client_options.cart.editable.override"
              label="Override"
              autoComplete="off"
              value={override}
              options={OVERRIDES}
              onChange={setOverride}
              error={errors['client_options.cart.editable.override']}
            />
          </fieldset>
          <TextField
            name="client_options.testCards"
            label="Test card numbers"
            hint="An order paid with one of these numbers is a test order: it is approved without a charge and marked as a test. Separate numbers with commas; up to 20."
            autoComplete="off"
            value={testCards}
            onChange={setTestCards}
            error={errors['client_options.testCards']}
            required={false}
          />
          <BoxOption
            name="subscriptionTermsCheckbox"
            legend="Subscription terms box"
            hint="When an order starts a subscription, the shopper ticks this box to agree to the subscription terms below; the order is refused until they do. Hidden, no agreement is asked for; a box that starts ticked counts as agreed unless the shopper unticks it."
            showLabel="Show the box on orders that start a subscription"
            value={terms}
            onChange={setTerms}
            errors={errors}
          />
          <BoxOption
            name="emailOptInCheckbox"
            legend="Email opt-in box"
            hint="Lets the shopper agree to emails from the store. Only a shopper who agreed gets the abandoned-checkout reminder."
            showLabel="Show the box on the checkout"
            value={optIn}
            onChange={setOptIn}
            errors={errors}
          />
        </>
      )}
    </SettingsForm>
  );
}
