import { postalFormatOf } from './countries.js';

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

/** Digits-only postal codes get the numeric keyboard; others (UK, Canada) need letters. */
export function isNumericPostalCode(country: string): boolean {
  const example = postalFormatOf(country)?.example;
  return example !== undefined && /^[\d -]+$/.test(example);
}
