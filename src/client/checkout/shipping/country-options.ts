import { COUNTRY_CODES } from '../../../domain/countries.js';
import type { SelectOption } from '../../ui/select-field.js';

const options = new Map<string, SelectOption[]>();

/** Every country named in the page's language (Intl.DisplayNames), sorted as that language sorts; built once each. */
export function countryOptions(language: string): SelectOption[] {
  let list = options.get(language);
  if (!list) {
    let names: Intl.DisplayNames | null = null;
    try {
      names = new Intl.DisplayNames([language], { type: 'region' });
    } catch {
      names = null;
    }
    list = COUNTRY_CODES.map((code) => ({ value: code, label: names?.of(code) ?? code })).sort((a, b) =>
      a.label.localeCompare(b.label, language),
    );
    options.set(language, list);
  }
  return list;
}
