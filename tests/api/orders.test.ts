import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { CartSchema } from '../../src/contract/cart.js';
import { OrderDetailSchema, SubscriptionSchema } from '../../src/contract/merchant.js';
import { gatewayCharges } from '../helpers/gateway-charges.js';
import { card, CARDS, LONDON_BILLING, orderBody } from '../helpers/order-body.js';
import { shopperSession } from '../helpers/shopper.js';
import { storeWithShopper } from '../helpers/store.js';
import { createTestApp, type TestApp } from '../helpers/test-app.js';

let t: TestApp;

beforeAll(async () => {
  t = await createTestApp();
});

afterAll(async () => {
  await t.close();
});

const setup = (options: Parameters<typeof storeWithShopper>[2] = {}) =>
  storeWithShopper(t.app, t.db, options);

let keyCounter = 0;
const key = () => `test-key-${process.pid}-${++keyCounter}`;

const HOUR = 3_600_000;
const DAY = 24 * HOUR;

describe('POST orders by card', () => {
  it('completes a one-off order: totals computed on the server, card summarised, merchant sees it', async () => {
    const { store, shopper } = await setup();
    const token = await store.cart([{ offer_id: store.offers.beans.id }, { offer_id: store.offers.mug.id }]);
    const preview = (await shopper.get(`carts/${token}/preview`, { ship_country: 'US', ship_state: 'TX' }))
      .body;

    const response = await shopper.post(
      'orders',
      orderBody(token, { shipping_profile_id: preview.order.shipping_profile_id }),
      {
        'idempotency-key': key(),
      },
    );
    expect(response.status).toBe(200);
    const cart = CartSchema.parse(response.body);
    expect(cart.order).toMatchObject({ status: 'complete', is_test: false });
    expect(cart.order.order_id).toEqual(expect.any(Number));
    expect(cart).toMatchObject({
      total: preview.total,
      total_tax: 2.64,
      total_campaign_shipping: 5,
      editable: false,
      payment_method_id: 1,
    });
    expect(cart.customer).toMatchObject({
      email: 'ada@example.com',
      ship_city: 'Austin',
      bill_city: 'Austin',
      same_address: true,
    });

    const detail = OrderDetailSchema.parse((await store.api.get(`/orders/${cart.order.order_id}`)).body);
    expect(detail).toMatchObject({
      status: 'complete',
      cart_token: token,
      email: 'ada@example.com',
      total: 41.64,
      subtotal: 32,
      total_tax: 2.64,
      shipping_address: { fname: 'Ada', city: 'Austin', state: 'TX', zipcode: '73301', country: 'US' },
      billing_address: { city: 'Austin' },
      consent: { subscription_terms_accepted: false, email_opt_in: false },
    });
    expect(detail.lines.map((line) => [line.item_name, line.quantity, line.total])).toEqual([
      ['Coffee beans', 1, 19.49],
      ['Stoneware mug', 1, 17.15],
    ]);
    expect(detail.payment_attempts).toEqual([
      expect.objectContaining({
        method: 'card',
        gateway: 'test',
        status: 'approved',
        amount: 41.64,
        card_brand: 'visa',
        card_last4: '1111',
        card_exp_month: 12,
        card_exp_year: 2030,
      }),
    ]);
    expect((await store.api.get('/orders')).body.data.map((o: { order_id: number }) => o.order_id)).toContain(
      cart.order.order_id,
    );
    expect(await gatewayCharges(t.db, store.org.id)).toBe(1);
  });

  it('accepts each brand with its own rules, American Express with a 4-digit code', async () => {
    const { store, shopper } = await setup();
    for (const number of [CARDS.mastercard, CARDS.discover, CARDS.amex]) {
      const token = await store.cart([{ offer_id: store.offers.beans.id }]);
      const response = await shopper.post('orders', orderBody(token, { payment: card(number) }));
      expect(response.status, number).toBe(200);
    }
  });

  it('names every problem at once and writes nothing', async () => {
    const { store, shopper } = await setup();
    const token = await store.cart([
      { offer_id: store.offers.beans.id },
      { offer_id: store.offers.mug.id, is_gift: true },
    ]);
    const response = await shopper.post('orders', {
      cart_token: token,
      email: 'ada@',
      phone: '12',
      ship_country: 'US',
      ship_state: 'ZZ',
      ship_zipcode: '1234',
      same_address: false,
      bill_country: 'GB',
      bill_zipcode: '12345',
      // The card fields are the processor's (its frame checks them): a card payment without its token is one problem.
      payment: { method: 'card' },
    });
    expect(response.status).toBe(422);
    expect(response.body.message).toMatch(/^Check the \d+ highlighted fields\.$/);
    const giftLine = (await shopper.get(`carts/${token}`)).body.offers[1].id;
    expect(response.body.fields).toEqual({
      email: 'Enter an email address like name@example.com.',
      phone: 'Enter a phone number like +1 555 010 0199.',
      ship_fname: 'Enter a first name.',
      ship_lname: 'Enter a last name.',
      ship_address1: 'Enter a street address.',
      ship_city: 'Enter a city.',
      ship_state: 'Choose a state from the list.',
      ship_zipcode: 'Enter a ZIP code like 95014.',
      bill_fname: 'Enter a first name.',
      bill_lname: 'Enter a last name.',
      bill_address1: 'Enter a street address.',
      bill_city: 'Enter a post town.',
      bill_zipcode: 'Enter a postal code like EC1Y 8SY.',
      'payment.card_token': 'Enter your card details.',
      [`gift_name_${giftLine}`]: 'Enter the recipient’s name.',
      [`gift_email_${giftLine}`]: 'Enter the recipient’s email address.',
      [`gift_date_${giftLine}`]: 'Choose the day the recipient is told about the gift.',
    });
    const { rows } = await t.db.query('SELECT 1 FROM orders WHERE organization_id = $1', [store.org.id]);
    expect(rows).toHaveLength(0);
    expect(await gatewayCharges(t.db, store.org.id)).toBe(0);
  });

  it('needs a payment for a total above zero and a shipping option that serves the address', async () => {
    const { store, shopper } = await setup();
    const token = await store.cart([{ offer_id: store.offers.beans.id }]);
    const noPayment = await shopper.post('orders', orderBody(token, { payment: undefined }));
    expect(noPayment.body.fields).toEqual({ payment: 'Choose how you want to pay.' });
    const wrongProfile = await shopper.post(
      'orders',
      orderBody(token, { shipping_profile_id: String(store.profiles.international.id) }),
    );
    expect(wrongProfile.body.fields).toEqual({
      shipping_profile_id: 'Choose one of the shipping options for this address.',
    });
    const nowhere = await shopper.post(
      'orders',
      orderBody(token, { ship_country: 'JP', ship_state: '13', ship_zipcode: '100-0001' }),
    );
    expect(nowhere.body.fields).toEqual({
      ship_country: "We don't ship to Japan. Choose another shipping address.",
    });
  });

  it('refuses prices sent by the client: the body has no place for them', async () => {
    const { store, shopper } = await setup();
    const token = await store.cart([{ offer_id: store.offers.beans.id }]);
    const response = await shopper.post('orders', orderBody(token, { total: 0.01, item_price: 0.01 }));
    expect(response.status).toBe(422);
    expect(response.body.fields).toEqual({
      total: 'This field is not expected here.',
      item_price: 'This field is not expected here.',
    });
  });

  it('applies the quantities of an editable cart sent with the order, and refuses them otherwise', async () => {
    const editable = await setup({ editable: { value: true, override: null } });
    const token = await editable.store.cart([{ offer_id: editable.store.offers.beans.id }]);
    const line = (await editable.shopper.get(`carts/${token}`)).body.offers[0].id;
    const placed = await editable.shopper.post(
      'orders',
      orderBody(token, { offers: [{ order_offer_id: line, order_offer_quantity: 3 }] }),
    );
    expect(placed.body).toMatchObject({ total_items: 3, subtotal: 54 });

    const fixed = await setup();
    const fixedToken = await fixed.store.cart([{ offer_id: fixed.store.offers.beans.id }]);
    const fixedLine = (await fixed.shopper.get(`carts/${fixedToken}`)).body.offers[0].id;
    const refused = await fixed.shopper.post(
      'orders',
      orderBody(fixedToken, { offers: [{ order_offer_id: fixedLine, order_offer_quantity: 3 }] }),
    );
    expect(refused.body.fields).toEqual({
      'offers.0.order_offer_quantity': "This item's quantity can't be changed.",
    });
  });
});

describe('declines and retries', () => {
  it('keeps a declined order for a retry through PUT orders/{order_id}', async () => {
    const { store, shopper } = await setup();
    const token = await store.cart([{ offer_id: store.offers.beans.id }]);
    const declined = await shopper.post('orders', orderBody(token, { payment: card(CARDS.declined) }), {
      'idempotency-key': key(),
    });
    expect(declined.status).toBe(402);
    expect(declined.body).toEqual({
      status: 402,
      code: 'card_declined',
      message: 'Your card was declined. Try another card or PayPal.',
    });

    const cart = CartSchema.parse((await shopper.get(`carts/${token}`)).body);
    expect(cart.order.status).toBe('declined');
    const orderId = cart.order.order_id;
    expect(orderId).toEqual(expect.any(Number));

    const retried = await shopper.put(`orders/${orderId}`, orderBody(token), { 'idempotency-key': key() });
    expect(retried.status).toBe(200);
    expect(retried.body.order).toMatchObject({ order_id: orderId, status: 'complete' });

    const detail = (await store.api.get(`/orders/${orderId}`)).body;
    expect(
      detail.payment_attempts.map((a: { status: string; card_last4: string }) => [a.status, a.card_last4]),
    ).toEqual([
      ['declined', '0002'],
      ['approved', '1111'],
    ]);
    expect(await gatewayCharges(t.db, store.org.id)).toBe(2);
  });

  it('says when funds are insufficient', async () => {
    const { store, shopper } = await setup();
    const token = await store.cart([{ offer_id: store.offers.beans.id }]);
    const response = await shopper.post(
      'orders',
      orderBody(token, { payment: card(CARDS.insufficientFunds) }),
    );
    expect(response.body).toEqual({
      status: 402,
      code: 'insufficient_funds',
      message: 'Your card has insufficient funds. Try another card or PayPal.',
    });
  });

  it('charges nothing on a gateway error and lets the shopper retry', async () => {
    const { store, shopper } = await setup();
    const token = await store.cart([{ offer_id: store.offers.beans.id }]);
    const failed = await shopper.post('orders', orderBody(token, { payment: card(CARDS.gatewayError) }));
    expect(failed.status).toBe(503);
    expect(failed.body).toEqual({
      status: 503,
      code: 'payment_unavailable',
      message: 'The payment service did not answer. Nothing was charged; try again.',
    });
    expect(failed.headers['retry-after']).toBe('5');
    expect(await gatewayCharges(t.db, store.org.id)).toBe(0);
    const orderId = (await shopper.get(`carts/${token}`)).body.order.order_id;
    const retried = await shopper.put(`orders/${orderId}`, orderBody(token));
    expect(retried.body.order.status).toBe('complete');
  });

  it('finds no cart to pay for once the cart has expired, neither a new order nor a retry, and charges nothing', async () => {
    const { store, shopper } = await setup();
    const declinedToken = await store.cart([{ offer_id: store.offers.beans.id }]);
    expect(
      (await shopper.post('orders', orderBody(declinedToken, { payment: card(CARDS.declined) }))).status,
    ).toBe(402);
    const orderId = (await shopper.get(`carts/${declinedToken}`)).body.order.order_id;
    const unpaidToken = await store.cart([{ offer_id: store.offers.beans.id }]);
    const expected = {
      status: 404,
      code: 'cart_not_found',
      message: 'This checkout link is no longer valid. Ask the store for a new one.',
    };
    // Carts live 30 days: a page left open that long finds nothing to pay for.
    t.clock.advance(30 * DAY);
    try {
      const later = await shopperSession(t.app, store.org.publicId);
      const placed = await later.post('orders', orderBody(unpaidToken), { 'idempotency-key': key() });
      expect(placed.body).toEqual(expected);
      expect((await later.put(`orders/${orderId}`, orderBody(declinedToken))).body).toEqual(expected);
      const express = await later.post('orders', { cart_token: unpaidToken, payment: { method: 'paypal' } });
      expect(express.body).toEqual(expected);
      expect((await later.get(`carts/${unpaidToken}/preview`, { ship_country: 'US' })).body).toEqual(
        expected,
      );
      expect(
        (await later.put(`carts/${unpaidToken}/discount_code`, { discount_code: 'WELCOME10' })).body,
      ).toEqual(expected);
    } finally {
      t.clock.advance(-30 * DAY);
    }
    expect(await gatewayCharges(t.db, store.org.id)).toBe(1);
    expect((await store.api.get('/orders')).body.data).toHaveLength(1);
  });

  it('never pays a completed order twice', async () => {
    const { store, shopper } = await setup();
    const token = await store.cart([{ offer_id: store.offers.beans.id }]);
    const placed = await shopper.post('orders', orderBody(token));
    const orderId = placed.body.order.order_id;
    const again = await shopper.put(`orders/${orderId}`, orderBody(token));
    expect(again.status).toBe(409);
    expect(again.body).toEqual({
      status: 409,
      code: 'order_complete',
      message: 'This order has already been placed and paid. Nothing was charged again.',
    });
    expect((await shopper.post('orders', orderBody(token))).status).toBe(409);
    expect(await gatewayCharges(t.db, store.org.id)).toBe(1);
  });

  it('finds no order under another cart or another id', async () => {
    const { store, shopper } = await setup();
    const token = await store.cart([{ offer_id: store.offers.beans.id }]);
    const other = await store.cart([{ offer_id: store.offers.beans.id }]);
    const declined = await shopper.post('orders', orderBody(token, { payment: card(CARDS.declined) }));
    expect(declined.status).toBe(402);
    const orderId = (await shopper.get(`carts/${token}`)).body.order.order_id;
    const response = await shopper.put(`orders/${orderId}`, orderBody(other));
    expect(response.status).toBe(404);
    expect(response.body.code).toBe('order_not_found');
  });
});

describe('Idempotency-Key', () => {
  it('answers a retry with the first result and charges once', async () => {
    const { store, shopper } = await setup();
    const token = await store.cart([{ offer_id: store.offers.beans.id }]);
    const headers = { 'idempotency-key': key() };
    // A retry is the same request: the page sends the same token again.
    const body = orderBody(token);
    const first = await shopper.post('orders', body, headers);
    const second = await shopper.post('orders', body, headers);
    expect(first.status).toBe(200);
    expect(second.status).toBe(200);
    expect(second.body).toEqual(first.body);
    expect(await gatewayCharges(t.db, store.org.id)).toBe(1);
  });

  it('replays a decline for the same key and refuses the key with another body', async () => {
    const { store, shopper } = await setup();
    const token = await store.cart([{ offer_id: store.offers.beans.id }]);
    const headers = { 'idempotency-key': key() };
    const declined = orderBody(token, { payment: card(CARDS.declined) });
    const first = await shopper.post('orders', declined, headers);
    const replay = await shopper.post('orders', declined, headers);
    expect(replay.status).toBe(402);
    expect(replay.body).toEqual(first.body);
    const other = await shopper.post('orders', orderBody(token, { email: 'grace@example.com' }), headers);
    expect(other.status).toBe(422);
    expect(other.body).toEqual({
      status: 422,
      code: 'idempotency_key_reused',
      message:
        'This Idempotency-Key was already used for a different request. Use a new key for a new attempt.',
    });
    expect(await gatewayCharges(t.db, store.org.id)).toBe(1);
  });

  it('refuses a malformed key', async () => {
    const { store, shopper } = await setup();
    const token = await store.cart([{ offer_id: store.offers.beans.id }]);
    const response = await shopper.post('orders', orderBody(token), { 'idempotency-key': 'x'.repeat(300) });
    expect(response.status).toBe(400);
    expect(response.body.code).toBe('invalid_idempotency_key');
  });

  it('keeps keys for 24 hours: a day later the same key starts a new request', async () => {
    const { store, shopper } = await setup();
    const headers = { 'idempotency-key': key() };
    const first = await shopper.post(
      'orders',
      orderBody(await store.cart([{ offer_id: store.offers.beans.id }]), { payment: card(CARDS.declined) }),
      headers,
    );
    expect(first.status).toBe(402);
    t.clock.advance(23 * 3_600_000);
    try {
      const later = await shopperSession(t.app, store.org.publicId);
      const replay = await later.post(
        'orders',
        orderBody(await store.cart([{ offer_id: store.offers.beans.id }])),
        headers,
      );
      expect(replay.body.code).toBe('idempotency_key_reused');
      t.clock.advance(2 * 3_600_000);
      const fresh = await shopperSession(t.app, store.org.publicId);
      const reused = await fresh.post(
        'orders',
        orderBody(await store.cart([{ offer_id: store.offers.beans.id }])),
        headers,
      );
      expect(reused.status).toBe(200);
    } finally {
      t.clock.advance(-25 * 3_600_000);
    }
  });
});

describe('test orders', () => {
  it('approves an organization test card and flags the order as a test', async () => {
    const { store, shopper } = await setup({ testCards: ['4242424242424242'] });
    const token = await store.cart([{ offer_id: store.offers.beans.id }]);
    const response = await shopper.post(
      'orders',
      orderBody(token, { payment: card('4242424242424242', { test_cards: ['4242424242424242'] }) }),
    );
    expect(response.status).toBe(200);
    expect(response.body.order.is_test).toBe(true);
    const detail = (await store.api.get(`/orders/${response.body.order.order_id}`)).body;
    expect(detail.is_test).toBe(true);
    expect(detail.payment_attempts[0]).toMatchObject({ card_brand: 'testcard', is_test: true });
  });

  it('flags orders placed in test mode (cypress=1)', async () => {
    const { store } = await setup();
    const tester = await shopperSession(t.app, store.org.publicId, { testMode: true });
    const token = await store.cart([{ offer_id: store.offers.beans.id }]);
    const response = await tester.post('orders', orderBody(token));
    expect(response.body.order.is_test).toBe(true);
  });
});

describe('zero totals', () => {
  it('completes a free one-off order without payment, and counts the code use', async () => {
    const { store, shopper } = await setup();
    const token = await store.cart([{ offer_id: store.offers.guide.id }]);
    await shopper.put(`carts/${token}/discount_code`, { discount_code: 'FREE' });
    const response = await shopper.post(
      'orders',
      orderBody(token, { payment: { method: 'none' }, same_address: false }),
    );
    expect(response.status).toBe(200);
    expect(response.body).toMatchObject({ total: 0, order: { status: 'complete' } });
    const detail = (await store.api.get(`/orders/${response.body.order.order_id}`)).body;
    expect(detail.payment_attempts).toEqual([
      expect.objectContaining({ method: 'none', amount: 0, status: 'approved' }),
    ]);
    expect(await gatewayCharges(t.db, store.org.id)).toBe(0);
    const code = (await store.api.get('/discount-codes')).body.data.find(
      (c: { code: string }) => c.code === 'FREE',
    );
    expect(code.usage_count).toBe(1);
  });

  it('still takes a card for a free first cycle of a subscription, to bill later cycles', async () => {
    const { store, shopper } = await setup();
    await store.api.patch(`/shipping-profiles/${store.profiles.standard.id}`, { price: 0 });
    const token = await store.cart([{ offer_id: store.offers.club.id }]);
    await shopper.put(`carts/${token}/discount_code`, { discount_code: 'FREE' });
    const noCard = await shopper.post(
      'orders',
      orderBody(token, { payment: { method: 'none' }, subscription_terms_accepted: true }),
    );
    expect(noCard.body.fields).toEqual({ payment: 'Choose how you want to pay.' });
    const response = await shopper.post('orders', orderBody(token, { subscription_terms_accepted: true }));
    expect(response.body).toMatchObject({ total: 0, order: { status: 'complete' } });
    const subscription = (await store.api.get('/subscriptions')).body.data[0];
    expect(subscription.payment_method).toEqual({ method: 'card', card_brand: 'visa', card_last4: '1111' });
  });
});

describe('subscriptions', () => {
  it('needs the terms accepted when the box is shown, records the consent and starts the subscription', async () => {
    const { store, shopper } = await setup();
    const token = await store.cart([{ offer_id: store.offers.club.id }]);
    await shopper.get(`carts/${token}/preview`, { ship_country: 'US', ship_state: 'TX' });
    const refused = await shopper.post('orders', orderBody(token));
    expect(refused.status).toBe(422);
    expect(refused.body.fields).toEqual({
      subscription_terms_accepted: 'Agree to the subscription terms to start your subscription.',
    });

    const response = await shopper.post(
      'orders',
      orderBody(token, { subscription_terms_accepted: true, email_opt_in: true }),
    );
    expect(response.status).toBe(200);
    const cart = CartSchema.parse(response.body);
    expect(cart.order.subscriptions).toEqual([
      {
        order_offer_id: cart.offers[0]?.id,
        item_name: 'Coffee club',
        amount: 27.06,
        interval_days: 30,
        next_charge_at: new Date(t.clock.now().getTime() + 30 * 86_400_000).toISOString(),
      },
    ]);
    const detail = (await store.api.get(`/orders/${cart.order.order_id}`)).body;
    expect(detail.consent).toEqual({
      subscription_terms_accepted: true,
      subscription_terms_language: 'en',
      subscription_terms_accepted_at: t.clock.now().toISOString(),
      subscription_terms_ip: null,
      subscription_terms_version: '2026-11-01',
      email_opt_in: true,
    });
    const subscription = SubscriptionSchema.parse(
      (await store.api.get(`/subscriptions/${detail.subscription_ids[0]}`)).body,
    );
    expect(subscription).toMatchObject({
      status: 'active',
      cycle_amount: 27.06,
      interval_days: 30,
      cycle: 1,
      customer_email: 'ada@example.com',
      payment_method: { method: 'card', card_brand: 'visa', card_last4: '1111' },
    });
  });

  it('does not ask for terms when the option is off', async () => {
    const { store, shopper } = await setup();
    await store.api.patch('/organization', {
      client_options: { subscriptionTermsCheckbox: { display: false, autoChecked: false } },
    });
    const token = await store.cart([{ offer_id: store.offers.club.id }]);
    expect((await shopper.post('orders', orderBody(token))).status).toBe(200);
  });
});

describe('discount code uses', () => {
  it('count only when an order completes: a decline gives the use back', async () => {
    const { store, shopper } = await setup();
    const created = await store.create('/discount-codes', {
      code: 'TWICE',
      kind: 'fixed',
      amount_off: 1,
      usage_limit: 2,
    });
    const token = await store.cart([{ offer_id: store.offers.beans.id }]);
    await shopper.put(`carts/${token}/discount_code`, { discount_code: 'twice' });
    expect((await shopper.post('orders', orderBody(token, { payment: card(CARDS.declined) }))).status).toBe(
      402,
    );
    expect((await store.api.get(`/discount-codes/${created.id}`)).body.usage_count).toBe(0);
    const orderId = (await shopper.get(`carts/${token}`)).body.order.order_id;
    const paid = await shopper.put(`orders/${orderId}`, orderBody(token));
    expect(paid.body).toMatchObject({ total_discount: 1, order: { status: 'complete' } });
    expect((await store.api.get(`/discount-codes/${created.id}`)).body.usage_count).toBe(1);
  });

  it('gives back the use a crashed attempt held when the retry uses another code', async () => {
    // Regression: the held use was compared with the order after it was rewritten, so it was never given back.
    const { store, shopper } = await setup();
    const first = await store.create('/discount-codes', {
      code: 'FIRSTCODE',
      kind: 'fixed',
      amount_off: 1,
      usage_limit: 10,
    });
    const second = await store.create('/discount-codes', {
      code: 'SECONDCODE',
      kind: 'fixed',
      amount_off: 2,
      usage_limit: 10,
    });
    const token = await store.cart([{ offer_id: store.offers.beans.id }]);
    await shopper.put(`carts/${token}/discount_code`, { discount_code: 'FIRSTCODE' });
    expect((await shopper.post('orders', orderBody(token, { payment: card(CARDS.declined) }))).status).toBe(
      402,
    );
    const orderId = (await shopper.get(`carts/${token}`)).body.order.order_id;
    // What a process killed between holding the use and recording the payment leaves behind.
    await t.db.query('UPDATE orders SET discount_reserved = true WHERE id = $1', [orderId]);
    await t.db.query('UPDATE discount_codes SET held_count = held_count + 1 WHERE id = $1', [first.id]);

    await shopper.put(`carts/${token}/discount_code`, { discount_code: 'SECONDCODE' });
    const paid = await shopper.put(`orders/${orderId}`, orderBody(token));
    expect(paid.body).toMatchObject({ total_discount: 2, order: { status: 'complete' } });
    expect((await store.api.get(`/discount-codes/${first.id}`)).body.usage_count).toBe(0);
    expect((await store.api.get(`/discount-codes/${second.id}`)).body.usage_count).toBe(1);
    const { rows } = await t.db.query<{ held_count: number }>(
      'SELECT held_count FROM discount_codes WHERE id = ANY($1::bigint[]) ORDER BY id',
      [[first.id, second.id]],
    );
    expect(rows).toEqual([{ held_count: 0 }, { held_count: 0 }]);
  });

  it('needs a billing address when nothing ships', async () => {
    const { store, shopper } = await setup();
    const token = await store.cart([{ offer_id: store.offers.guide.id }]);
    const noBilling = await shopper.post('orders', orderBody(token));
    expect(noBilling.body.fields).toEqual({
      bill_fname: 'Enter a first name.',
      bill_lname: 'Enter a last name.',
      bill_address1: 'Enter a street address.',
      bill_city: 'Enter a city.',
      bill_country: 'Choose a country.',
    });
    const response = await shopper.post('orders', orderBody(token, LONDON_BILLING));
    expect(response.status).toBe(200);
    expect(response.body).toMatchObject({
      total: 9,
      order: { shipping_information_required: false, status: 'complete' },
    });
  });

  it('stops an order whose code was used up meanwhile, before any charge', async () => {
    const { store, shopper } = await setup();
    const created = await store.create('/discount-codes', {
      code: 'LASTONE',
      kind: 'fixed',
      amount_off: 1,
      usage_limit: 1,
    });
    const first = await store.cart([{ offer_id: store.offers.beans.id }]);
    const second = await store.cart([{ offer_id: store.offers.beans.id }]);
    await shopper.put(`carts/${first}/discount_code`, { discount_code: 'LASTONE' });
    await shopper.put(`carts/${second}/discount_code`, { discount_code: 'LASTONE' });
    expect((await shopper.post('orders', orderBody(first))).status).toBe(200);
    const refused = await shopper.post('orders', orderBody(second));
    expect(refused.status).toBe(422);
    expect(refused.body).toEqual({
      status: 422,
      code: 'discount_code_used_up',
      message: 'The code LASTONE has been used as many times as it allows. Remove it to place your order.',
    });
    // Without the code the same shopper can pay the full price they now see.
    await shopper.put(`carts/${second}/discount_code`, { discount_code: '' });
    expect((await shopper.post('orders', orderBody(second))).status).toBe(200);
    expect((await store.api.get(`/discount-codes/${created.id}`)).body.usage_count).toBe(1);
    expect(await gatewayCharges(t.db, store.org.id)).toBe(2);
  });

  it('stops an order whose code expired after it was applied, before any charge', async () => {
    const { store, shopper } = await setup();
    await store.create('/discount-codes', {
      code: 'FLASH',
      kind: 'percent',
      percent_off: 20,
      ends_at: new Date(t.clock.now().getTime() + HOUR).toISOString(),
    });
    const token = await store.cart([{ offer_id: store.offers.beans.id }]);
    const applied = await shopper.put(`carts/${token}/discount_code`, { discount_code: 'flash' });
    expect(applied.body).toMatchObject({ discount_code: 'FLASH', total_discount: 3.6 });
    // The shopper comes back to the open page after the sale has ended.
    t.clock.advance(2 * HOUR);
    try {
      const later = await shopperSession(t.app, store.org.publicId);
      const refused = await later.post('orders', orderBody(token));
      expect(refused.body).toEqual({
        status: 422,
        code: 'discount_code_expired',
        message: 'The code FLASH expired on November 21, 2026. Remove it to place your order.',
      });
      expect(await gatewayCharges(t.db, store.org.id)).toBe(0);
      expect((await later.get(`carts/${token}`)).body).toMatchObject({
        discount_code: 'FLASH',
        total_discount: 0,
        discount_notice: { code: 'discount_code_expired' },
      });
      // Without the code the shopper pays the full price they now see.
      await later.put(`carts/${token}/discount_code`, { discount_code: '' });
      const paid = await later.post('orders', orderBody(token));
      expect(paid.status).toBe(200);
      expect(paid.body).toMatchObject({ total_discount: 0, order: { status: 'complete' } });
    } finally {
      t.clock.advance(-2 * HOUR);
    }
    expect(await gatewayCharges(t.db, store.org.id)).toBe(1);
  });
});

describe('card-testing limits', () => {
  it('refuses a sixth payment attempt on a cart after five failures within 10 minutes', async () => {
    const { store, shopper } = await setup();
    const token = await store.cart([{ offer_id: store.offers.beans.id }]);
    await shopper.put(`carts/${token}/discount_code`, { discount_code: 'WELCOME10' });
    expect((await shopper.post('orders', orderBody(token, { payment: card(CARDS.declined) }))).status).toBe(
      402,
    );
    const orderId = (await shopper.get(`carts/${token}`)).body.order.order_id;
    for (let attempt = 2; attempt <= 5; attempt++) {
      expect(
        (await shopper.put(`orders/${orderId}`, orderBody(token, { payment: card(CARDS.declined) }))).status,
      ).toBe(402);
    }
    const refused = await shopper.put(`orders/${orderId}`, orderBody(token));
    expect(refused.status).toBe(429);
    expect(refused.body.code).toBe('too_many_failed_payments');
    // Regression: giving up the refused attempt once reset a declined order to pending, and must give back the
    // code use it held.
    expect((await shopper.get(`carts/${token}`)).body.order.status).toBe('declined');
    const code = (await store.api.get('/discount-codes')).body.data.find(
      (c: { code: string }) => c.code === 'WELCOME10',
    );
    expect(code.usage_count).toBe(0);
    expect(Number(refused.headers['retry-after'])).toBeGreaterThan(0);
    expect(await gatewayCharges(t.db, store.org.id)).toBe(5);
    t.clock.advance(11 * 60_000);
    try {
      const later = await shopperSession(t.app, store.org.publicId);
      expect((await later.put(`orders/${orderId}`, orderBody(token))).status).toBe(200);
    } finally {
      t.clock.advance(-11 * 60_000);
    }
  });
});
