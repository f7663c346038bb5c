import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  CARDS,
  card,
  EXPRESS_PAYER_FORM,
  GIFT_RECIPIENT,
  LONDON_BILLING,
  orderBody,
} from '../helpers/order-body.js';
import { shopperSession, type ShopperSession } from '../helpers/shopper.js';
import { storeWithShopper, type Store } from '../helpers/store.js';
import { createTestApp, TEST_PUBLIC_URL, type TestApp } from '../helpers/test-app.js';

// An order answers its cart from what the order path holds (the order and lines it wrote, the subscriptions it
// started) instead of reading them back: the answer must be exactly the cart as read from the database afterwards.
let t: TestApp;

beforeAll(async () => {
  t = await createTestApp();
});

afterAll(async () => {
  await t.close();
});

let keys = 0;

/** Places the order with an Idempotency-Key; checks its answer against GET carts/{token} and against a replay. */
async function expectAnswerAsReadBack(
  shopper: ShopperSession,
  token: string,
  request: { method: 'post' | 'put'; path: string; body: Record<string, unknown> },
) {
  const key = `answer-${++keys}`;
  const placed = await shopper[request.method](request.path, request.body, { 'idempotency-key': key });
  expect(placed.status, JSON.stringify(placed.body)).toBe(200);
  expect(placed.body.order.status).toBe('complete');
  const read = await shopper.get(`carts/${placed.body.cart_token as string}`);
  expect(read.status).toBe(200);
  // The same fields in the same order with the same values: the same JSON text.
  expect(JSON.stringify(placed.body)).toBe(JSON.stringify(read.body));
  // A replay answers the stored response (its keys in the order jsonb keeps them).
  const replayed = await shopper[request.method](request.path, request.body, { 'idempotency-key': key });
  expect(replayed.status).toBe(200);
  expect(replayed.body).toEqual(placed.body);
  expect(token).toBe(placed.body.cart_token);
  return placed.body;
}

async function withGifts(store: Store, shopper: ShopperSession, token: string) {
  const cart = (await shopper.get(`carts/${token}`)).body;
  for (const offer of cart.offers.filter((o: { is_gift: boolean }) => o.is_gift)) {
    const saved = await shopper.patch(`order_offers/${offer.id as number}/gift`, {
      ...GIFT_RECIPIENT,
      order_offer_id: offer.id,
      cart_token: token,
    });
    expect(saved.status).toBe(200);
  }
  return store;
}

describe("an order's answer", () => {
  it('is the cart as read back, for a card order that ships and is taxed', async () => {
    const { store, shopper } = await storeWithShopper(t.app, t.db);
    const token = await store.cart([{ offer_id: store.offers.beans.id, quantity: 2 }]);
    const preview = await shopper.get(`carts/${token}/preview`, { ship_country: 'US', ship_state: 'TX' });
    expect(preview.status).toBe(200);
    const answer = await expectAnswerAsReadBack(shopper, token, {
      method: 'post',
      path: 'orders',
      body: orderBody(token, { shipping_profile_id: String(store.profiles.express.id) }),
    });
    expect(answer.order.shipping_profile_id).toBe(String(store.profiles.express.id));
    expect(answer.payment_method_id).not.toBeNull();
  });

  it('is the cart as read back, with a discount code and a billing address of its own', async () => {
    const { store, shopper } = await storeWithShopper(t.app, t.db);
    const token = await store.cart([{ offer_id: store.offers.mug.id }, { offer_id: store.offers.beans.id }]);
    expect((await shopper.put(`carts/${token}/discount_code`, { discount_code: 'MUGLOVE' })).status).toBe(
      200,
    );
    const answer = await expectAnswerAsReadBack(shopper, token, {
      method: 'post',
      path: 'orders',
      body: orderBody(token, { ...LONDON_BILLING, payment: card(CARDS.mastercard) }),
    });
    expect(answer.discount_code).toBe('MUGLOVE');
    expect(answer.total_discount).toBeGreaterThan(0);
    expect(answer.customer.bill_country).toBe('GB');
  });

  it('is the cart as read back, for a subscription (with the subscription it started)', async () => {
    const { store, shopper } = await storeWithShopper(t.app, t.db);
    const token = await store.cart([{ offer_id: store.offers.club.id }, { offer_id: store.offers.guide.id }]);
    const answer = await expectAnswerAsReadBack(shopper, token, {
      method: 'post',
      path: 'orders',
      body: orderBody(token, { subscription_terms_accepted: true }),
    });
    expect(answer.order.subscriptions).toEqual([
      expect.objectContaining({ item_name: 'Coffee club', interval_days: 30 }),
    ]);
  });

  it('is the cart as read back, for gifts (a gift subscription starts none) and for the claim of one', async () => {
    const { store, shopper } = await storeWithShopper(t.app, t.db);
    const token = await store.cart([
      { offer_id: store.offers.mug.id, is_gift: true },
      { offer_id: store.offers.club.id, is_gift: true },
      { offer_id: store.offers.beans.id },
    ]);
    await withGifts(store, shopper, token);
    const answer = await expectAnswerAsReadBack(shopper, token, {
      method: 'post',
      path: 'orders',
      body: orderBody(token, { ...LONDON_BILLING, subscription_terms_accepted: true }),
    });
    expect(answer.order.subscriptions).toEqual([]);

    // The recipient's claim completes without a payment, in the transaction that saves it.
    const detail = (await store.api.get(`/orders/${answer.order.order_id as number}`)).body;
    const claimUrl = (detail.gifts as { claim_url: string }[])[0]?.claim_url ?? '';
    const recipientSession = await shopperSession(t.app, store.org.publicId);
    const opened = await recipientSession.get(
      `carts/${new URL(claimUrl).pathname.replace('/checkout/', '')}`,
    );
    expect(opened.status).toBe(200);
    const claimToken = opened.body.cart_token as string;
    const claimed = await expectAnswerAsReadBack(recipientSession, claimToken, {
      method: 'post',
      path: 'orders',
      body: orderBody(claimToken, { email: 'grace@example.com', payment: { method: 'none' } }),
    });
    expect(claimed.order.is_gift_claim).toBe(true);
    expect(claimed.payment_method_id).toBeNull();
  });

  it('is the cart as read back, for a free order completed without a payment', async () => {
    const { store, shopper } = await storeWithShopper(t.app, t.db);
    const token = await store.cart([{ offer_id: store.offers.guide.id }]);
    expect((await shopper.put(`carts/${token}/discount_code`, { discount_code: 'FREE' })).status).toBe(200);
    const answer = await expectAnswerAsReadBack(shopper, token, {
      method: 'post',
      path: 'orders',
      body: orderBody(token, { payment: { method: 'none' }, same_address: false }),
    });
    expect(answer.total).toBe(0);
  });

  it('is the cart as read back, for a retry through PUT orders/{order_id} after a decline', async () => {
    const { store, shopper } = await storeWithShopper(t.app, t.db);
    const token = await store.cart([{ offer_id: store.offers.beans.id }]);
    const declined = await shopper.post('orders', orderBody(token, { payment: card(CARDS.declined) }));
    expect(declined.status).toBe(402);
    const orderId = (await shopper.get(`carts/${token}`)).body.order.order_id as number;
    const answer = await expectAnswerAsReadBack(shopper, token, {
      method: 'put',
      path: `orders/${orderId}`,
      body: orderBody(token, { ship_city: 'Dallas', ship_zipcode: '75201' }),
    });
    expect(answer.order.order_id).toBe(orderId);
    expect(answer.customer.ship_city).toBe('Dallas');
  });

  it('is the cart as read back, for a retry after a decline that a code made free', async () => {
    const { store, shopper } = await storeWithShopper(t.app, t.db);
    const token = await store.cart([{ offer_id: store.offers.guide.id }]);
    const body = LONDON_BILLING;
    const declined = await shopper.post(
      'orders',
      orderBody(token, { ...body, payment: card(CARDS.declined) }),
    );
    expect(declined.status).toBe(402);
    const orderId = (await shopper.get(`carts/${token}`)).body.order.order_id as number;
    expect((await shopper.put(`carts/${token}/discount_code`, { discount_code: 'FREE' })).status).toBe(200);
    // The order saved by the declined attempt completes without a payment, in the transaction that rewrites it.
    const answer = await expectAnswerAsReadBack(shopper, token, {
      method: 'put',
      path: `orders/${orderId}`,
      body: orderBody(token, { ...body, payment: { method: 'none' } }),
    });
    expect(answer.order.order_id).toBe(orderId);
    expect(answer.total).toBe(0);
    const detail = (await store.api.get(`/orders/${orderId}`)).body;
    expect(detail.payment_attempts).toEqual([
      expect.objectContaining({ status: 'declined' }),
      expect.objectContaining({ status: 'approved', amount: 0 }),
    ]);
  });

  it('is the cart as read back, for an express payment started and then completed', async () => {
    const { store, shopper } = await storeWithShopper(t.app, t.db);
    const token = await store.cart([{ offer_id: store.offers.beans.id }]);
    expect(
      (await shopper.get(`carts/${token}/preview`, { ship_country: 'US', ship_state: 'TX' })).status,
    ).toBe(200);
    const started = await shopper.post('orders', { cart_token: token, payment: { method: 'paypal' } });
    expect(started.status).toBe(200);
    const { action, ...startedCart } = started.body as {
      action: { url: string };
      order: { order_id: number };
    };
    expect(startedCart).toMatchObject({ order: { status: 'awaiting_payment' } });
    expect(JSON.stringify(startedCart)).toBe(JSON.stringify((await shopper.get(`carts/${token}`)).body));

    const url = new URL(action.url, TEST_PUBLIC_URL);
    const approved = await t.app.inject({
      method: 'POST',
      url: url.pathname,
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
      payload: new URLSearchParams({ ...EXPRESS_PAYER_FORM, decision: 'approve' }).toString(),
    });
    expect(approved.statusCode).toBe(303);
    const paymentTokenId =
      new URL(approved.headers.location as string).searchParams.get('payment_token_id') ?? '';
    const answer = await expectAnswerAsReadBack(shopper, token, {
      method: 'post',
      path: 'orders',
      body: orderBody(token, { payment: { method: 'paypal', payment_token_id: paymentTokenId } }),
    });
    expect(answer.order.order_id).toBe(startedCart.order.order_id);
  });
});
