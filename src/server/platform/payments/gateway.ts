import type { CardBrand } from '../../../domain/card.js';

/**
 * Card details exist only for the duration of one charge call: never stored, logged, echoed or reported.
 * What may be kept is CardSummary (brand, last 4, expiry) and the gateway's token.
 */
export interface CardDetails {
  number: string;
  cvv: string;
  expMonth: number;
  expYear: number;
}

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
  /** a new card, or a token the gateway gave for a stored payment method (rebills) */
  source: { kind: 'card'; card: CardDetails; summary: CardSummary } | { kind: 'token'; token: string };
  /** ask the gateway for a reusable token (subscriptions) */
  storeForFuture: boolean;
  /** the same key for a retry of the same charge: the gateway must not charge twice */
  idempotencyKey: string;
  description: string;
  /** approve any card as a test charge (the organization's testCards) */
  testCard: boolean;
  /** whose charge this is, for the gateway's records */
  organizationId?: number;
}

export type DeclineCode =
  'card_declined' | 'insufficient_funds' | 'expired_card' | 'incorrect_cvc' | 'payment_declined';

export type ChargeResult =
  | { status: 'approved'; reference: string; paymentMethodToken: string | null }
  | { status: 'declined'; code: DeclineCode; message: string; reference: string | null }
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

export type RefundResult = { status: 'refunded'; reference: string } | { status: 'error'; message: string };

/** Every payment provider sits behind this interface; the built-in test gateway is the default. */
export interface PaymentGateway {
  readonly name: string;
  charge(request: ChargeRequest): Promise<ChargeResult>;
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
