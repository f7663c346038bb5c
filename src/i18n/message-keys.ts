// Every message's key, read off the English catalogues: a key that is not in English does not compile (docs/languages.md).
import type common from './catalogues/common/en.json';
import type language from './catalogues/language/en.json';
import type payment from './catalogues/payment/en.json';
import type confirmation from './catalogues/confirmation/en.json';
import type funnel from './catalogues/funnel/en.json';
import type card from './catalogues/card/en.json';
import type provider from './catalogues/provider/en.json';

export type MessageKey =
  | keyof typeof common
  | keyof typeof language
  | keyof typeof payment
  | keyof typeof confirmation
  | keyof typeof funnel
  | keyof typeof card
  | keyof typeof provider;

/** Values a message is filled with: {name} placeholders, plural counts. */
export type MessageValues = Record<string, string | number>;

/** A message to say, not yet said: what shared rules (src/domain) answer, each side saying it in its language. */
export interface Message {
  key: MessageKey;
  values?: MessageValues;
}
