// Every message's key, read off the English catalogues: a key that is not in English does not compile (docs/languages.md).
import type common from './catalogues/common/en.json';
import type language from './catalogues/language/en.json';
import type address from './catalogues/address/en.json';

export type MessageKey = keyof typeof common | keyof typeof language | keyof typeof address;

/** Values a message is filled with: {name} placeholders, plural counts. */
export type MessageValues = Record<string, string | number>;

/** A message to say, not yet said: what shared rules (src/domain) answer, each side saying it in its language. */
export interface Message {
  key: MessageKey;
  values?: MessageValues;
}
