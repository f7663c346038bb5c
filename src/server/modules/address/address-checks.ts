// A shopper's address checked by its country's rules (src/domain/address), its refusals as catalogue messages the
// error handler says in the request's language (docs/languages.md).
import { validateAddress } from '../../../domain/address/address-data.js';
import type { AddressValues } from '../../../domain/address/address-format.js';
import type { Message } from '../../../i18n/message-keys.js';

/** What is wrong with an address, keyed as the order body names its fields (ship_zipcode, bill_state…). */
export function checkAddress(address: AddressValues, prefix: 'ship' | 'bill'): Record<string, Message> {
  const problems = validateAddress(address);
  return Object.fromEntries(
    Object.entries(problems).map(([field, message]) => [`${prefix}_${field}`, message]),
  );
}
