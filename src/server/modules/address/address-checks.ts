// A shopper's address checked by its country's rules (src/domain/address), its refusals said in words.
import { validateAddress } from '../../../domain/address/address-data.js';
import type { AddressValues } from '../../../domain/address/address-format.js';
import type { Message } from '../../../i18n/message-keys.js';
import { translatorFor, type Translate } from '../../i18n/translator.js';

/** Field → what is wrong, said. */
export type SaidProblems = Record<string, string>;

let english: Translate | null = null;

/**
 * Says an address refusal. The one place that picks the words' language: English until the error handler says
 * refusals in the request's language (docs/languages.md), when this answers the Message itself.
 */
export function sayAddressMessage(message: Message): string {
  english ??= translatorFor('en');
  return english(message.key, message.values);
}

/** What is wrong with an address, keyed as the order body names its fields (ship_zipcode, bill_state…). */
export function addressMessages(address: AddressValues, prefix: 'ship' | 'bill'): Record<string, Message> {
  const problems = validateAddress(address);
  return Object.fromEntries(
    Object.entries(problems).map(([field, message]) => [`${prefix}_${field}`, message]),
  );
}

export function checkAddress(address: AddressValues, prefix: 'ship' | 'bill'): SaidProblems {
  return Object.fromEntries(
    Object.entries(addressMessages(address, prefix)).map(([field, message]) => [
      field,
      sayAddressMessage(message),
    ]),
  );
}
