// What an order request comes to once it is checked and saved, and what the order path depends on.
import type { CreateOrder, OrderResponse, UpdateOrder } from '../../../contract/order.js';
import type { Database, Queryable } from '../../platform/db/database.js';
import type { AppError } from '../../platform/errors.js';
import type { AnswerKeeper } from './idempotency.js';
import type { ShopperContext } from '../organizations/request-context.js';
import type {
  CardSummary,
  CardTokenDescription,
  ChargeRequest,
  PaymentGateway,
} from '../../platform/payments/gateway.js';
import type { PaymentAttemptRow } from './payment-attempts-repository.js';
import type { ExpressPaymentRow } from '../express/express-payments-repository.js';
import type { OrderLineValues, OrderRow, OrderValues } from './orders-repository.js';
import type { OrganizationRow } from '../organizations/organizations-repository.js';
import type { OrderLineFigures } from './order-figures.js';
import type { ShippingProfileRow } from '../catalog/shipping-profiles-repository.js';
import type { CartState } from '../carts/cart-state.js';
import type { CartPricing } from '../carts/cart-pricing.js';
import type { CartCustomer } from '../carts/customers-repository.js';
import type { OrderAddresses } from './order-request.js';
import type { OrderStep } from './order-decisions.js';

/** The abuse limits orders respect (src/server/platform/security/abuse-limits.ts). */
export interface OrderLimits {
  beforeOrderAttempt(input: { organizationId: number; cartId: number; ip: string | null }): Promise<void>;
  /** beforeOrderAttempt inside the order's transaction, when the limits are kept in the same database */
  beforeOrderAttemptInTransaction?(
    tx: Queryable,
    input: { organizationId: number; cartId: number; ip: string | null },
  ): Promise<void>;
  recordFailedPayment(input: { organizationId: number; cartId: number; ip: string | null }): Promise<void>;
}

export interface OrderDependencies {
  db: Database;
  gateways: { card: PaymentGateway; express: PaymentGateway };
  limits: OrderLimits;
  publicUrl: string;
  /** how long one payment attempt holds its order (config PAYMENT_LEASE_SECONDS) */
  paymentLeaseMs: number;
}

export interface OrderRequest {
  kind: 'create' | 'update';
  /** PUT orders/{order_id} */
  orderId: number | null;
  body: CreateOrder | UpdateOrder;
  shopper: ShopperContext;
  now: Date;
  /** stores the answer under the request's Idempotency-Key in the transaction that makes it true */
  answers: AnswerKeeper;
  /** the card token the body names, as the processor described it before the order was placed */
  card?: DescribedCardToken | null;
}

/** A single-use card token and what the processor says of it (docs/payments.md, "One path through the code"). */
export interface DescribedCardToken {
  token: string;
  description: CardTokenDescription;
}

/** An order request checked and priced under its cart's lock. */
export interface PricedOrder {
  /** the cart, with the quantities the request changed */
  state: CartState;
  addresses: OrderAddresses;
  pricing: CartPricing;
  termsDisplayed: boolean;
  /** the approved express payment the order completes with, when it is paid so */
  express: ExpressPaymentRow | null;
  /** the payment the bank asked to authenticate that this request completes, when it names one */
  authenticated: PaymentAttemptRow | null;
}

/** What a priced order comes to (order-decisions.ts): what happens next, and what is written. */
export interface OrderDecision {
  step: OrderStep;
  isTest: boolean;
  testCard: boolean;
  storeForFuture: boolean;
  customer: CartCustomer;
  values: Omit<OrderValues, 'customer_id'>;
  lines: OrderLineValues[];
}

/** The order as this attempt saved it, read back, and its cart with the customer and the order as saved. */
export interface SavedOrder {
  order: OrderRow;
  customerId: number;
  cart: CartState;
}

export type Plan =
  /** completed in the transaction that saved it (nothing to pay): its answer, from what that transaction holds */
  | { kind: 'completed'; organization: OrganizationRow; cartId: number; answer: OrderResponse }
  /** the abuse limits refused the payment: the order is saved without it and the 429 is answered */
  | { kind: 'refused'; organization: OrganizationRow; error: AppError }
  | {
      kind: 'express_start';
      organization: OrganizationRow;
      cartId: number;
      express: { id: number; publicId: string };
      amount: number;
      returnUrl: string;
      storeForFuture: boolean;
      /** the cart as the order left it (its customer and order as saved) */
      after: CartState;
    }
  | {
      kind: 'charge';
      organization: OrganizationRow;
      cartId: number;
      /** the gift this cart claims (carts.gift_claim_id, set when the cart is made) */
      giftClaimId: number | null;
      orderId: number;
      customerId: number;
      attempt: number;
      amount: number;
      storeForFuture: boolean;
      isTest: boolean;
      discountCodeId: number | null;
      /** until when this attempt holds the order: the order still holding it when paid was not rewritten since */
      paymentLeaseUntil: Date;
      /** nothing completes with the order (no gift, subscription, stored payment method or express payment) */
      completesAlone: boolean;
      /** the cart with its customer as saved, the order and its lines as written, and the shipping profile the order
       * chose: what its answer is made of */
      saved: CartState;
      order: OrderRow;
      lines: readonly OrderLineFigures[];
      chosenProfile: ShippingProfileRow | null;
      payment:
        | {
            method: 'card';
            source: Extract<ChargeRequest['source'], { kind: 'card_token' | 'authenticated' }>;
            summary: CardSummary;
          }
        | { method: 'paypal'; express: ExpressPaymentRow };
    };
