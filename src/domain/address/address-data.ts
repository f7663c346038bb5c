// Every country's address format, from the generated address-data.json (scripts/address-data.ts, docs/languages.md,
// "Addresses"). The server's: the page asks for one country's format when the shopper chooses it.
import data from './address-data.json' with { type: 'json' };
import {
  addressProblems,
  findSubdivision,
  formatFromRecord,
  type AddressFormat,
  type AddressProblems,
  type AddressValues,
  type CountryRecord,
  type Subdivision,
} from './address-format.js';
import { isCountryCode } from '../countries.js';

const COUNTRIES = data.countries as unknown as Record<string, CountryRecord>;
const DEFAULTS = data.defaults as CountryRecord;

const formats = new Map<string, AddressFormat>();

/** A country's address format; a country the data does not list gets the data's defaults. Null for no country. */
export function addressFormatOf(country: string): AddressFormat | null {
  const code = country.trim().toUpperCase();
  if (!isCountryCode(code)) return null;
  let format = formats.get(code);
  if (!format) {
    format = formatFromRecord(code, Object.hasOwn(COUNTRIES, code) ? (COUNTRIES[code] ?? {}) : {}, DEFAULTS);
    formats.set(code, format);
  }
  return format;
}

/** The subdivisions a country's addresses choose from; empty where the data lists none. */
export function subdivisionsOf(country: string): readonly Subdivision[] {
  return addressFormatOf(country)?.subdivisions ?? [];
}

export function isSubdivisionOf(country: string, code: string): boolean {
  const format = addressFormatOf(country);
  return format !== null && findSubdivision(format, code) !== undefined;
}

/** Everything wrong with an address, its country first (it decides the rest): docs/checkout-rules.md. */
export function validateAddress(address: AddressValues): AddressProblems {
  const country = address.country?.trim() ?? '';
  const format = addressFormatOf(country);
  if (format) return addressProblems(address, format);
  const problems = addressProblems(address, formatFromRecord('', {}, DEFAULTS));
  // Without a country the state and postal code cannot be checked: only what every address needs is.
  delete problems.state;
  delete problems.zipcode;
  problems.country = {
    key: country === '' ? 'address.error.country_required' : 'address.error.country_unknown',
  };
  return problems;
}
