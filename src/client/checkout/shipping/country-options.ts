import { COUNTRY_CODES } from '../../../domain/countries.js';
import type { SelectOption } from '../../ui/select-field.js';
import { countryName } from '../format.js';

let options: SelectOption[] | null = null;

/** Every country by its English name, sorted by name; built once. */
export function countryOptions(): SelectOption[] {
  options ??= COUNTRY_CODES.map((code) => ({ value: code, label: countryName(code) })).sort((a, b) =>
    a.label.localeCompare(b.label, 'en'),
  );
  return options;
}
