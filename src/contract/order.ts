import { schemaMessage } from './errors.js';
import { CartSchema } from './cart.js';
import { QuantitySchema } from './common.js';
import { unlessUnused, z } from './zod.js';

// The page imports this module for the answers' schemas: every schema the page does not use (requests', query
// strings') is built in unlessUnused, so the page's bundle leaves it out (tests/e2e/page-bundle.test.ts).

const field = (max: number) => z.optional(z.string().check(z.maxLength(max)));

/**
 * A card payment names what the processor's frame made on the page (docs/payments.md): the single-use token of the
 * card the shopper typed there, or, after the bank asked them to authenticate, the payment they authenticated (the
 * reference of the order's requires_action answer). Card numbers and security codes are never accepted here.
 */
export const CardPaymentSchema = unlessUnused(() =>
  z.strictObject({
    method: z.literal('card'),
    card_token: z.optional(z.string().check(z.maxLength(255))),
    authenticated_payment: z.optional(z.string().check(z.maxLength(255))),
  }),
);
export type CardPayment = z.infer<typeof CardPaymentSchema>;

export const ExpressPaymentSchema = unlessUnused(() =>
  z.strictObject({
    method: z.literal('paypal'),
    payment_token_id: z.optional(z.string().check(z.maxLength(64))),
  }),
);
export type ExpressPayment = z.infer<typeof ExpressPaymentSchema>;

/** A zero-total, non-recurring order needs no payment. */
export const NoPaymentSchema = unlessUnused(() => z.strictObject({ method: z.literal('none') }));

export const PaymentInputSchema = unlessUnused(() =>
  z.discriminatedUnion('method', [CardPaymentSchema, ExpressPaymentSchema, NoPaymentSchema]),
);
export type PaymentInput = z.infer<typeof PaymentInputSchema>;

const orderFields = unlessUnused(() => ({
  cart_token: z.string().check(z.minLength(1, 'cart_token is required.'), z.maxLength(64)),
  email: field(254),
  phone: field(40),
  ship_fname: field(100),
  ship_lname: field(100),
  ship_address1: field(200),
  ship_address2: field(200),
  ship_city: field(100),
  ship_state: field(100),
  ship_zipcode: field(20),
  ship_country: field(2),
  bill_fname: field(100),
  bill_lname: field(100),
  bill_address1: field(200),
  bill_address2: field(200),
  bill_city: field(100),
  bill_state: field(100),
  bill_zipcode: field(20),
  bill_country: field(2),
  same_address: z.optional(z.boolean()),
  shipping_profile_id: z.optional(z.union([z.string().check(z.maxLength(20)), z.int()])),
  payment: z.optional(PaymentInputSchema),
  subscription_terms_accepted: z.optional(z.boolean()),
  email_opt_in: z.optional(z.boolean()),
  /** marks an order update as coming from the checkout page */
  from_checkout: z.optional(z.boolean()),
  _is_vrio_checkout: z.optional(z.union([z.literal(1), z.literal('1'), z.literal(true)])),
  ip_address: z.optional(z.string().check(z.maxLength(64))),
}));

export const OrderLineInputSchema = unlessUnused(() =>
  z.strictObject({
    order_offer_id: z.int(),
    order_offer_quantity: QuantitySchema,
  }),
);

/** POST orders. Prices are never accepted from the client: the server computes every amount. */
export const CreateOrderSchema = unlessUnused(() =>
  z.strictObject({
    ...orderFields,
    offers: z.optional(z.array(OrderLineInputSchema).check(z.maxLength(50))),
    gift_cards: z.optional(
      z
        .array(z.string().check(z.maxLength(64)))
        .check(z.maxLength(0, schemaMessage('errors.field_gift_cards_not_accepted'))),
    ),
  }),
);
export type CreateOrder = z.infer<typeof CreateOrderSchema>;

/** PUT orders/{order_id}: the same body without offers and gift_cards. */
export const UpdateOrderSchema = unlessUnused(() => z.strictObject(orderFields));
export type UpdateOrder = z.infer<typeof UpdateOrderSchema>;

export const OrderActionSchema = z.union([
  z.object({ type: z.literal('redirect'), url: z.string() }),
  /**
   * The bank wants the shopper to authenticate the card payment (3-D Secure): the page hands `payment_action` to its
   * processor adapter, then sends the order again with payment { method: 'card', authenticated_payment: reference }.
   */
  z.object({
    type: z.literal('authenticate'),
    reference: z.string(),
    payment_action: z.union([
      z.object({ type: z.literal('challenge'), url: z.string() }),
      z.object({ type: z.literal('stripe'), client_secret: z.string() }),
    ]),
  }),
]);

/** The answer to POST/PUT orders: the cart (order.status tells the outcome), plus an action for express payment. */
export const OrderResponseSchema = z.extend(CartSchema, {
  action: z.optional(OrderActionSchema),
});
export type OrderResponse = z.infer<typeof OrderResponseSchema>;

export const PaymentTokenSchema = z.object({
  payment_token_id: z.string(),
  provider: z.string(),
  status: z.enum(['created', 'approved', 'cancelled', 'used', 'expired']),
  /**
   * what the payer approved at the provider (major units): the cart's total when the payment started, before the
   * payer's address priced shipping and tax; the order charges its final total
   */
  amount: z.number(),
  currency: z.string(),
  payer: z.nullable(
    z.object({
      email: z.string(),
      fname: z.string(),
      lname: z.string(),
      ship_fname: z.string(),
      ship_lname: z.string(),
      ship_address1: z.string(),
      ship_address2: z.string(),
      ship_city: z.string(),
      ship_state: z.string(),
      ship_zipcode: z.string(),
      ship_country: z.string(),
    }),
  ),
});
export type PaymentToken = z.infer<typeof PaymentTokenSchema>;
