import { addressOnOneLine, type AddressFormat } from '../../../domain/address/address-format.js';

/**
 * An address on one line, for a finished step, as its country writes it (docs/languages.md, "Addresses"): "Ada
 * Lovelace, 1 Main St, Austin, TX 78701, United States"; the fields as given while the format is not loaded.
 */
export function addressLine(
  text: Record<string, string>,
  prefix: 'ship' | 'bill',
  format: AddressFormat | null,
  language: string,
  countryName: (code: string) => string,
): string {
  const value = (field: string) => (text[`${prefix}_${field}`] ?? '').trim();
  const address = {
    fname: value('fname'),
    lname: value('lname'),
    address1: value('address1'),
    address2: value('address2'),
    city: value('city'),
    state: value('state'),
    zipcode: value('zipcode'),
  };
  const country = value('country');
  return addressOnOneLine(address, format, language, country ? countryName(country) : '');
}
