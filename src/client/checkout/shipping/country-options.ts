import { COUNTRY_CODES } from '../../../domain/countries.js';
import type { SelectOption } from '../../ui/select-field.js';
import { countryName } from '../format.js';

const options = new Map<string, SelectOption[]>();

/** Every country by its name in the page's language, sorted by that name; built once a language. */
export function countryOptions(locale: string): SelectOption[] {
  let list = options.get(locale);
  if (!list) {
    list = COUNTRY_CODES.map((code) => ({ value: code, label: countryName(code, locale) })).sort((a, b) =>
      a.label.localeCompare(b.label, locale),
    );
    options.set(locale, list);
  }
  return list;
}
