import { checkPostalCode, countryHasStates, isCountryCode, isStateOf, postalFormatOf } from './countries.js';
import type { FieldErrors } from './field-errors.js';

export interface AddressValues {
  fname: string;
  lname: string;
  address1: string;
  address2: string;
  city: string;
  state: string;
  zipcode: string;
  country: string;
}

const STATE_LABELS: Readonly<Record<string, string>> = {
  CA: 'Province',
  AU: 'State or territory',
};

/** What the state field is called in a country's addresses. */
export function stateLabelOf(country: string): string {
  return STATE_LABELS[country] ?? 'State';
}

/** What the postal-code field is called in a country's addresses ("ZIP code", "Postcode", "Eircode"). */
export function postalLabelOf(country: string): string {
  const label = postalFormatOf(country)?.label ?? 'postal code';
  return label.charAt(0).toUpperCase() + label.slice(1);
}

const MAX_LENGTH: Readonly<Partial<Record<keyof AddressValues, number>>> = {
  fname: 100,
  lname: 100,
  address1: 200,
  address2: 200,
  city: 100,
};

const REQUIRED: readonly [keyof AddressValues, string][] = [
  ['fname', 'Enter a first name.'],
  ['lname', 'Enter a last name.'],
  ['address1', 'Enter a street address.'],
  ['city', 'Enter a city.'],
];

/** Errors keyed by the address field (fname, zipcode…), each saying what to do. */
export function validateAddress(values: AddressValues): FieldErrors {
  const errors: FieldErrors = {};
  for (const [name, message] of REQUIRED) {
    if (values[name].trim() === '') errors[name] = message;
  }
  for (const [name, max] of Object.entries(MAX_LENGTH) as [keyof AddressValues, number][]) {
    if (!errors[name] && values[name].trim().length > max) errors[name] = `Use at most ${max} characters.`;
  }
  const country = values.country.trim();
  if (country === '') errors.country = 'Choose a country.';
  else if (!isCountryCode(country)) errors.country = 'Choose a country from the list.';
  if (country !== '' && countryHasStates(country) && !isStateOf(country, values.state)) {
    errors.state = `Choose a ${stateLabelOf(country).toLowerCase()}.`;
  }
  if (country !== '' && isCountryCode(country)) {
    const postal = checkPostalCode(country, values.zipcode);
    if (!postal.ok) errors.zipcode = postal.message;
  }
  return errors;
}
