import { describe, expect, it } from 'vitest';
import { CreateOrderSchema, UpdateOrderSchema } from '../../../contract/order.js';
import { initialProcessOrderState } from '../../../domain/process-order-state.js';
import { cartFixture, FILLED_CUSTOMER, pageConfigFixture } from '../../testing/fixtures.js';
import { initialForm } from '../form/checkout-form.js';
import { buildOrderBody, type OrderBodyInput } from './order-body.js';

const cart = cartFixture({ customer: FILLED_CUSTOMER, order: { shipping_profile_id: '1' } });
const form = initialForm(cart, null, new Date(2026, 10, 15));

const input = (overrides: Partial<OrderBodyInput> = {}): OrderBodyInput => ({
  cart,
  token: cart.cart_token,
  form,
  orderState: initialProcessOrderState(pageConfigFixture().client_options),
  payment: 'card',
  expressPaymentTokenId: null,
  card: { card_token: 'tok_test_1' },
  billingShown: false,
  isUpdate: false,
  ...overrides,
});

describe('buildOrderBody', () => {
  it('sends a card order the contract accepts, with the offers and the checkout flag', () => {
    const body = buildOrderBody(input());
    expect(CreateOrderSchema.safeParse({ ...body, _is_vrio_checkout: 1 }).success).toBe(true);
    expect(body).toMatchObject({
      cart_token: cart.cart_token,
      email: 'ada@example.com',
      ship_zipcode: '73301',
      same_address: true,
      shipping_profile_id: '1',
      from_checkout: true,
      offers: [{ order_offer_id: 11, order_offer_quantity: 1 }],
      payment: { method: 'card', card_token: 'tok_test_1' },
    });
    expect(body).not.toHaveProperty('bill_fname');
  });

  it('pays by card with the token only: no card number, expiry or security code leaves the page', () => {
    const { payment } = buildOrderBody(input());
    expect(payment).toEqual({ method: 'card', card_token: 'tok_test_1' });
  });

  it('sends the authenticated payment again after 3-D Secure, as an update', () => {
    const body = buildOrderBody(input({ isUpdate: true, card: { authenticated_payment: 'pay_ref_9' } }));
    expect(body.payment).toEqual({ method: 'card', authenticated_payment: 'pay_ref_9' });
    expect(UpdateOrderSchema.safeParse(body).success).toBe(true);
  });

  it('leaves out offers on an update (PUT orders/{order_id})', () => {
    const body = buildOrderBody(input({ isUpdate: true }));
    expect(body).not.toHaveProperty('offers');
    expect(UpdateOrderSchema.safeParse(body).success).toBe(true);
  });

  it('sends the billing address when the billing section is shown', () => {
    expect(buildOrderBody(input({ billingShown: true }))).toHaveProperty('bill_country', 'US');
  });

  it('pays by PayPal with the approved token, or by nothing for a free order', () => {
    expect(buildOrderBody(input({ payment: 'paypal', expressPaymentTokenId: 'pt_1' })).payment).toEqual({
      method: 'paypal',
      payment_token_id: 'pt_1',
    });
    expect(buildOrderBody(input({ payment: 'none' })).payment).toEqual({ method: 'none' });
  });

  it('sends the terms and opt-in choices', () => {
    const body = buildOrderBody(input());
    expect(body.subscription_terms_accepted).toBe(true);
    expect(body.email_opt_in).toBe(false);
  });
});
