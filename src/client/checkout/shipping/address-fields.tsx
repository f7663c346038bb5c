import { isNumericPostalCode, postalLabelOf, stateLabelOf } from '../../../domain/address-labels.js';
import { countryHasStates, isStateOf, statesOf } from '../../../domain/countries.js';
import { SelectField } from '../../ui/select-field.js';
import { TextField } from '../../ui/text-field.js';
import type { FieldBinding } from '../use-section-fields.js';
import { countryOptions } from './country-options.js';
import { useT } from '../../i18n/use-t.js';

export interface AddressFieldsProps {
  prefix: 'ship' | 'bill';
  bind: (name: string) => FieldBinding;
}

/** An address: country first (it decides the state list and postal format), then name, street, city, state, postcode. */
export function AddressFields({ prefix, bind }: AddressFieldsProps) {
  const { language } = useT();
  const section = prefix === 'ship' ? 'shipping' : 'billing';
  const country = bind(`${prefix}_country`);
  const state = bind(`${prefix}_state`);
  const states = statesOf(country.value);
  const onCountryChange = (code: string) => {
    country.onChange(code);
    // A state of the old country means nothing in the new one.
    if (state.value !== '' && !isStateOf(code, state.value)) state.onChange('');
  };
  return (
    <div className="address-fields">
      <SelectField
        {...country}
        onChange={onCountryChange}
        label="Country or region"
        options={countryOptions(language)}
        placeholder="Choose a country"
        autoComplete={`${section} country`}
      />
      <div className="field-row">
        <TextField
          {...bind(`${prefix}_fname`)}
          label="First name"
          autoComplete={`${section} given-name`}
          maxLength={100}
        />
        <TextField
          {...bind(`${prefix}_lname`)}
          label="Last name"
          autoComplete={`${section} family-name`}
          maxLength={100}
        />
      </div>
      <TextField
        {...bind(`${prefix}_address1`)}
        label="Street address"
        autoComplete={`${section} address-line1`}
        maxLength={200}
      />
      <TextField
        {...bind(`${prefix}_address2`)}
        label="Apartment, suite, etc."
        autoComplete={`${section} address-line2`}
        required={false}
        maxLength={200}
      />
      <div className="field-row field-row--three">
        <TextField
          {...bind(`${prefix}_city`)}
          label="City"
          autoComplete={`${section} address-level2`}
          maxLength={100}
        />
        {countryHasStates(country.value) ? (
          <SelectField
            {...state}
            label={stateLabelOf(country.value)}
            options={states.map((state) => ({ value: state.code, label: state.name }))}
            placeholder={`Choose a ${stateLabelOf(country.value).toLowerCase()}`}
            autoComplete={`${section} address-level1`}
          />
        ) : null}
        <TextField
          {...bind(`${prefix}_zipcode`)}
          label={postalLabelOf(country.value)}
          autoComplete={`${section} postal-code`}
          inputMode={isNumericPostalCode(country.value) ? 'numeric' : 'text'}
          maxLength={20}
        />
      </div>
    </div>
  );
}
