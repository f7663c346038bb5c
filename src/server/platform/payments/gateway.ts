import type { CardBrand } from '../../../domain/card.js';

export interface CardSummary {
  brand: CardBrand | 'testcard';
  typeId: number;
  last4: string;
  expMonth: number;
  expYear: number;
}

export interface ChargeRequest {
  /** minor units */
  amount: number;
  currency: string;
  /**
   * What pays: a single-use card token the processor's frame made on the page (docs/payments.md), a payment the bank
   * asked the shopper to authenticate and the page says they did (its reference, from the requires_action answer), or
   * a stored payment method's token (rebills, off-session).
   */
  source:
    | { kind: 'card_token'; token: string }
    | { kind: 'authenticated'; reference: string }
    | {
        kind: 'stored';
        token: string;
        customerReference: string | null;
        /**
         * The shopper is on the page (a one-click upsell, docs/api.md "Upsells"): a bank that asks for authentication
         * is answered requires_action where the processor can show it, instead of a decline.
         */
        shopperPresent?: boolean;
      };
  /** ask the gateway for a reusable token (subscriptions) */
  storeForFuture: boolean;
  /** the same key for a retry of the same charge: the gateway must not charge twice */
  idempotencyKey: string;
  description: string;
  /** whose charge this is, for the gateway's records */
  organizationId?: number;
  /** our order and attempt, kept with the payment at the processor so its webhooks find the order again */
  orderId?: number;
  attempt?: number;
}

/**
 * Why a card token cannot be charged, which the order module says with a catalogue message in the shopper's language
 * (docs/languages.md); the processor's own words stay in `message`, for the merchant's records.
 */
export type UnusableCardReason =
  /** unknown, expired, or used by an earlier charge: the shopper enters the card again */
  | 'entry_used'
  /** a card brand (or a wallet with no card brand) we do not take */
  | 'brand_not_accepted'
  /** this processor takes no cards */
  | 'cards_not_taken';

/** What the processor says of a single-use card token, before anything is charged: never the number or CVV. */
export type CardTokenDescription =
  | { status: 'usable'; summary: CardSummary; testCard: boolean }
  /**
   * unknown, expired, or used by an earlier charge: the shopper enters the card again. `usedBy` says which charge
   * used it, where the processor can tell (its idempotency key, or null when it cannot say which): a retry of that
   * charge after our answer was lost (a crash) may send it again, and the processor answers that charge's result.
   */
  | {
      status: 'unusable';
      reason: UnusableCardReason;
      message: string;
      usedBy?: { idempotencyKey: string | null; summary: CardSummary; testCard: boolean };
    };

/** What the page's processor adapter needs to let the shopper authenticate a payment (3-D Secure). */
export type PaymentAction =
  /** the built-in test processor: its challenge page, framed from its own origin */
  | { type: 'challenge'; url: string }
  /** Stripe: stripe.handleNextAction with the PaymentIntent's client secret */
  | { type: 'stripe'; client_secret: string };

export type DeclineCode =
  | 'card_declined'
  | 'insufficient_funds'
  | 'expired_card'
  | 'incorrect_cvc'
  | 'payment_declined'
  | 'authentication_failed'
  /** an off-session charge the bank wants the cardholder to authenticate: the subscriber must come back */
  | 'authentication_required';

export type ChargeResult =
  | {
      status: 'approved';
      reference: string;
      /**
       * What the processor says it took (minor units, upper-case currency), where it says it: a payment the page
       * authenticated is checked against what we asked for (docs/api.md, "Upsells").
       */
      charged?: { amount: number; currency: string };
      paymentMethodToken: string | null;
      /** the processor's customer the stored method belongs to (Stripe cus_…), charged again with it */
      customerReference?: string | null;
      /** the card as the processor saw it, for a payment the page authenticated (no token description then) */
      summary?: CardSummary;
    }
  /** the bank wants the shopper to authenticate: nothing is charged until they do and the page confirms */
  | { status: 'requires_action'; reference: string; action: PaymentAction }
  | {
      status: 'declined';
      code: DeclineCode;
      message: string;
      reference: string | null;
      /**
       * The processor says no retry of this method will go through (lost or stolen card, closed account, fraud):
       * rebills stop retrying it (docs/operations.md, "Dunning"). Absent where the processor does not say.
       */
      hard?: boolean;
    }
  /** the gateway could not decide (network, outage): nothing was charged, the shopper may retry */
  | { status: 'error'; message: string; retryable: true };

export interface ExpressStartRequest {
  amount: number;
  currency: string;
  /** our payment_token_id, carried through the provider and back */
  paymentTokenId: string;
  returnUrl: string;
  cancelUrl: string;
  idempotencyKey: string;
  description: string;
  /** ask the provider to save the payer's wallet for later charges (subscriptions) */
  storeForFuture: boolean;
}

export interface ExpressPayer {
  email: string;
  fname: string;
  lname: string;
  ship_fname: string;
  ship_lname: string;
  ship_address1: string;
  ship_address2: string;
  ship_city: string;
  ship_state: string;
  ship_zipcode: string;
  ship_country: string;
}

export type ExpressStartResult =
  | { status: 'created'; providerReference: string; approvalUrl: string }
  | { status: 'error'; message: string; retryable: true };

export type ExpressCompleteResult =
  | { status: 'approved'; reference: string; payer: ExpressPayer | null; paymentMethodToken: string | null }
  | { status: 'declined'; code: DeclineCode; message: string; reference: string | null }
  | { status: 'error'; message: string; retryable: true };

export type RefundResult =
  | { status: 'refunded'; reference: string }
  /**
   * Not refunded. `retryable`: the processor did not answer (a lost connection, its outage), so it may have made the
   * refund; asking again with the same idempotency key answers the first result. Without it, the processor refused.
   */
  | { status: 'error'; message: string; retryable?: true };

/**
 * A payment the bank asked the shopper to authenticate, cancelled before it completes (a one-click upsell the shopper
 * then said no to, docs/api.md "Upsells").
 */
export type CancelResult =
  /** cancelled, or it had failed or been cancelled already: it can never be charged now */
  | { status: 'canceled' }
  /** it went through before it could be cancelled: the shopper is charged, and the charge stands */
  | { status: 'succeeded' }
  /** the processor did not answer, or cannot cancel it yet: nothing is known, ask again */
  | { status: 'error'; message: string; retryable: true };

/** A card saved for later off-session charges, without charging it (a subscriber's new card). */
export interface SaveCardRequest {
  /** the single-use token the processor's frame made on the self-service page */
  token: string;
  /**
   * The reference of this save's requires_action answer, once the page says the subscriber authenticated it (3-D
   * Secure): the processor answers how the save ended.
   */
  authenticated?: string;
  /** the processor's customer to attach the card to (Stripe cus_…), when the subscription's card had one */
  customerReference: string | null;
  /** the same key for a retry of the same save: the processor must not save twice */
  idempotencyKey: string;
  /** the subscription's currency: nothing is charged, but a processor's records of the save name it */
  currency: string;
  description: string;
  organizationId?: number;
}

export type SaveCardResult =
  | {
      status: 'saved';
      /** the reusable token rebills charge (payment_methods.gateway_token) */
      paymentMethodToken: string;
      customerReference: string | null;
      summary: CardSummary;
      testCard: boolean;
    }
  /** the bank asks the subscriber to authenticate the card first: nothing is saved until they do */
  | { status: 'requires_action'; reference: string; action: PaymentAction }
  /** the processor refused the card (declined, or the token was unusable): the subscriber enters another */
  | { status: 'declined'; code: DeclineCode; message: string }
  /** the processor could not decide (network, outage): nothing was saved, the subscriber may retry */
  | { status: 'error'; message: string; retryable: true };

/** Every payment provider sits behind this interface; the built-in test gateway is the default (docs/payments.md). */
export interface PaymentGateway {
  readonly name: string;
  /** Reads a single-use card token without using it up (brand, last 4, expiry); only gateways that take cards. */
  describeCardToken?(token: string): Promise<CardTokenDescription>;
  charge(request: ChargeRequest): Promise<ChargeResult>;
  /**
   * Saves a single-use card token as a reusable payment method without charging it (docs/payments.md, "Saving a
   * card"); only gateways that take cards. A retry with the same idempotency key answers the first result.
   */
  saveCard?(request: SaveCardRequest): Promise<SaveCardResult>;
  /**
   * Cancels a payment still waiting for the shopper's authentication (its reference from a requires_action answer);
   * only gateways that can. A retry with the same idempotency key answers the first result.
   */
  cancelPayment?(request: { reference: string; idempotencyKey: string }): Promise<CancelResult>;
  refund(request: {
    reference: string;
    amount: number;
    currency: string;
    idempotencyKey: string;
  }): Promise<RefundResult>;
  /** Creates an express (PayPal-style) payment the payer approves at approvalUrl. */
  startExpress(request: ExpressStartRequest): Promise<ExpressStartResult>;
  /**
   * Captures an approved express payment; providerReference comes from startExpress. The payer approves before our
   * page knows their address, then confirms the final total on our page: when `amount` (that final total) differs
   * from `approvedAmount`, the adapter updates the provider's payment to it before capturing.
   */
  completeExpress(request: {
    providerReference: string;
    amount: number;
    approvedAmount: number;
    currency: string;
    idempotencyKey: string;
    organizationId?: number;
  }): Promise<ExpressCompleteResult>;
}
