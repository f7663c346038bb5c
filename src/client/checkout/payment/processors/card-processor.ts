// The page's side of a card processor (docs/payments.md, "The page adapter"): the card fields live in the
// processor's frame, and the page hears only the brand, completeness, errors and finally a single-use token.
import type { Language } from '../../../../i18n/languages.js';
import type { Translate } from '../../../i18n/use-t.js';

/** What the framed fields tell the page as the shopper types: never the number or the security code. */
export interface CardFieldsState {
  brand: 'visa' | 'mastercard' | 'discover' | 'american-express' | 'testcard' | 'other' | null;
  complete: boolean;
  empty: boolean;
  /** the message to show under the fields, or null */
  error: string | null;
}

/** What the server's requires_action answer asks the page's adapter to show (3-D Secure). */
export type PaymentAction = { type: 'challenge'; url: string } | { type: 'stripe'; client_secret: string };

export type Outcome<T extends object = object> = ({ ok: true } & T) | { ok: false; message: string };

export interface MountOptions {
  /** the organization's test card numbers (test mode): the test processor marks them as test cards */
  testCards: readonly string[];
  onChange(state: CardFieldsState): void;
  /** minor units, for processors whose element wants it (Stripe's wallets) */
  amount: number;
  currency: string;
  /** the order keeps the card for later cycles (a subscription): wallets must be asked for a reusable card */
  storeForFuture: boolean;
  /** 'setup': the card is saved and nothing is charged now (a subscriber's new card); `amount` is then unused */
  purpose?: 'payment' | 'setup';
  /** the page's language: the processor's fields and its messages speak it (docs/languages.md) */
  language: Language;
  t: Translate;
}

export interface MountedCardFields {
  tokenize(): Promise<Outcome<{ token: string }>>;
  authenticate(action: PaymentAction): Promise<Outcome>;
  /** test mode: puts one of the test card numbers into the framed number field */
  fillTestCard?(number: string): void;
  focus(): void;
  /** the total or the subscription changed after mounting (a code applied, a line removed) */
  update?(options: Pick<MountOptions, 'amount' | 'currency' | 'storeForFuture'>): void;
  /**
   * the page's switcher turned its language: the fields say their words in it where they stand, keeping what was
   * typed (docs/languages.md); the page's own messages come through `t`, which reads the page's language
   */
  setLanguage?(language: Language): void;
  destroy(): void;
}

export interface CardProcessor {
  mount(container: HTMLElement, options: MountOptions): Promise<MountedCardFields>;
  /**
   * The bank's authentication of a payment made with a card kept earlier, no card fields mounted (a one-click upsell,
   * docs/api.md "Upsells"). Only processors whose challenge is not a page of ours to frame (Stripe.js) have it.
   */
  authenticate?(action: PaymentAction, t: Translate): Promise<Outcome>;
}
