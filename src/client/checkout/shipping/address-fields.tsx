import {
  subdivisionName,
  type AddressFormat,
  type FormField,
} from '../../../domain/address/address-format.js';
import { useT } from '../../i18n/use-t.js';
import { SelectField } from '../../ui/select-field.js';
import { TextField } from '../../ui/text-field.js';
import type { FieldBinding } from '../use-section-fields.js';
import { loadedAddressData, useAddressFormat } from './address-data-chunk.js';
import { countryOptions } from './country-options.js';

export interface AddressFieldsProps {
  prefix: 'ship' | 'bill';
  bind: (name: string) => FieldBinding;
}

/** Digits-only postal codes (by the country's example) get the numeric keyboard; others (UK, Canada) need letters. */
function isNumeric(format: AddressFormat): boolean {
  return format.postalExample !== null && /^[\d -]+$/.test(format.postalExample);
}

/**
 * An address: country first (it decides the rest), then its fields in the country's order and its names for them,
 * as Google's address data says (docs/languages.md, "Addresses").
 */
export function AddressFields({ prefix, bind }: AddressFieldsProps) {
  const { t, language } = useT();
  const section = prefix === 'ship' ? 'shipping' : 'billing';
  const country = bind(`${prefix}_country`);
  const state = bind(`${prefix}_state`);
  const format = useAddressFormat(country.value);
  const onCountryChange = (code: string) => {
    country.onChange(code);
    // A state of the old country means nothing in the new one.
    if (state.value !== '' && !(loadedAddressData()?.isSubdivisionOf(code, state.value) ?? false)) {
      state.onChange('');
    }
  };

  const field = (name: FormField, format: AddressFormat) => {
    const required = format.required.includes(name);
    const common = { ...bind(`${prefix}_${name}`), required };
    switch (name) {
      case 'fname':
        return (
          <TextField
            key={name}
            {...common}
            label={t('address.first_name')}
            autoComplete={`${section} given-name`}
            maxLength={100}
          />
        );
      case 'lname':
        return (
          <TextField
            key={name}
            {...common}
            label={t('address.last_name')}
            autoComplete={`${section} family-name`}
            maxLength={100}
          />
        );
      case 'address1':
        return (
          <TextField
            key={name}
            {...common}
            label={t('address.address1')}
            autoComplete={`${section} address-line1`}
            maxLength={200}
          />
        );
      case 'address2':
        return (
          <TextField
            key={name}
            {...common}
            required={false}
            label={t('address.address2')}
            autoComplete={`${section} address-line2`}
            maxLength={200}
          />
        );
      case 'city':
        return (
          <TextField
            key={name}
            {...common}
            label={t(format.cityLabel)}
            autoComplete={`${section} address-level2`}
            maxLength={100}
          />
        );
      case 'state':
        return format.subdivisions.length > 0 ? (
          <SelectField
            key={name}
            {...common}
            label={t(format.stateLabel)}
            options={format.subdivisions.map((subdivision) => ({
              value: subdivision.code,
              label: subdivisionName(subdivision, format, language),
            }))}
            placeholder={t('address.choose')}
            autoComplete={`${section} address-level1`}
          />
        ) : (
          <TextField
            key={name}
            {...common}
            label={t(format.stateLabel)}
            autoComplete={`${section} address-level1`}
            maxLength={100}
          />
        );
      case 'zipcode':
        return (
          <TextField
            key={name}
            {...common}
            label={t(format.postalLabel)}
            autoComplete={`${section} postal-code`}
            inputMode={isNumeric(format) ? 'numeric' : 'text'}
            maxLength={20}
          />
        );
    }
  };

  return (
    <div className="address-fields">
      <SelectField
        {...country}
        onChange={onCountryChange}
        label={t('address.country')}
        options={countryOptions(language)}
        placeholder={t('address.choose_country')}
        autoComplete={`${section} country`}
      />
      {format
        ? format.rows.map((row) =>
            row.length === 1 ? (
              field(row[0] as FormField, format)
            ) : (
              <div key={row.join('-')} className={`field-row${row.length > 2 ? ' field-row--three' : ''}`}>
                {row.map((name) => field(name, format))}
              </div>
            ),
          )
        : null}
    </div>
  );
}
