import {
  CARD_NUMBER_IN_TEXT_MESSAGE,
  containsCardNumber,
  isCardNumberValue,
  scrubCardNumbers,
} from './card.js';
import type { FieldMessages } from './field-errors.js';

/**
 * Every place in a request's query or body that holds a card number, keyed by dotted path as validation problems
 * are ("ship_zipcode", "payment.card_number"), each with the message that tells the shopper where card details go.
 * Strings, numbers and field names are looked at; `expected` names the paths where the route takes a card number
 * on purpose. A path is reported masked, so the answer never carries the number even when it is a field's name.
 */
export function findCardNumbers(input: unknown, expected: readonly string[] = []): FieldMessages {
  const found: FieldMessages = {};
  const onPurpose = new Set(expected);
  const visit = (value: unknown, path: string, keyHoldsCard: boolean) => {
    if (onPurpose.has(path)) return;
    if (keyHoldsCard || isCardNumberValue(value)) {
      // Own properties only: a hostile field named "__proto__" is reported like any other.
      Object.defineProperty(found, scrubCardNumbers(path) || '_', {
        value: CARD_NUMBER_IN_TEXT_MESSAGE,
        enumerable: true,
        writable: true,
        configurable: true,
      });
      return;
    }
    if (value === null || typeof value !== 'object') return;
    for (const [key, item] of Object.entries(value)) {
      visit(item, path === '' ? key : `${path}.${key}`, containsCardNumber(key));
    }
  };
  visit(input, '', false);
  return found;
}
