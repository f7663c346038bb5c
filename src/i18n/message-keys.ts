// Every message's key, read off the English catalogues: a key that is not in English does not compile (docs/languages.md).
import type common from './catalogues/common/en.json';
import type language from './catalogues/language/en.json';
import type errors from './catalogues/errors/en.json';
import type fields from './catalogues/fields/en.json';
import type checkout from './catalogues/checkout/en.json';
import type gifts from './catalogues/gifts/en.json';
import type summary from './catalogues/summary/en.json';
import type ui from './catalogues/ui/en.json';
import type emails from './catalogues/emails/en.json';
import type manage from './catalogues/manage/en.json';
import type address from './catalogues/address/en.json';
import type payment from './catalogues/payment/en.json';
import type confirmation from './catalogues/confirmation/en.json';
import type funnel from './catalogues/funnel/en.json';
import type card from './catalogues/card/en.json';
import type provider from './catalogues/provider/en.json';
import type plan from './catalogues/plan/en.json';

export type MessageKey =
  | keyof typeof common
  | keyof typeof language
  | keyof typeof errors
  | keyof typeof fields
  | keyof typeof checkout
  | keyof typeof gifts
  | keyof typeof summary
  | keyof typeof ui
  | keyof typeof emails
  | keyof typeof manage
  | keyof typeof address
  | keyof typeof payment
  | keyof typeof confirmation
  | keyof typeof funnel
  | keyof typeof card
  | keyof typeof provider
  | keyof typeof plan;

/** Values a message is filled with: {name} placeholders, plural counts. */
export type MessageValues = Record<string, string | number>;

/** A message to say, not yet said: what shared rules (src/domain) answer, each side saying it in its language. */
export interface Message {
  key: MessageKey;
  values?: MessageValues;
}
