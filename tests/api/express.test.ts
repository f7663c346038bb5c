import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { CartSchema } from '../../src/contract/cart.js';
import { PaymentTokenSchema } from '../../src/contract/order.js';
import { card, CARDS, EXPRESS_PAYER_FORM, orderBody } from '../helpers/order-body.js';
import { shopperSession, type ShopperSession } from '../helpers/shopper.js';
import { storeWithShopper } from '../helpers/store.js';
import { createTestApp, TEST_PUBLIC_URL, type TestApp } from '../helpers/test-app.js';

let t: TestApp;

beforeAll(async () => {
  t = await createTestApp();
});

afterAll(async () => {
  await t.close();
});

const setup = () => storeWithShopper(t.app, t.db);

/** The shopper presses the express button: nothing filled in yet. */
async function startExpress(shopper: ShopperSession, token: string) {
  const response = await shopper.post(
    'orders',
    { cart_token: token, payment: { method: 'paypal' } },
    { 'idempotency-key': `express-${token}` },
  );
  expect(response.status, JSON.stringify(response.body)).toBe(200);
  expect(response.body.action.type).toBe('redirect');
  return { cart: CartSchema.parse(response.body), url: new URL(response.body.action.url as string) };
}

/** The payer decides on the provider's (our local stand-in's) page. */
async function decide(
  url: URL,
  decision: 'approve' | 'cancel',
  form: Record<string, string> = EXPRESS_PAYER_FORM,
) {
  return t.app.inject({
    method: 'POST',
    url: url.pathname,
    headers: { 'content-type': 'application/x-www-form-urlencoded' },
    payload: new URLSearchParams({ ...form, decision }).toString(),
  });
}

/** The payer approves with the form's details; answers the payment token the return link carries. */
async function approve(url: URL): Promise<string> {
  const approved = await decide(url, 'approve');
  expect(approved.statusCode).toBe(303);
  const paymentTokenId = new URL(approved.headers.location as string).searchParams.get('payment_token_id');
  expect(paymentTokenId).toMatch(/^pt_/);
  return paymentTokenId ?? '';
}

/** The page, back from the provider, fills the details from the payer and places the order. */
function completionBody(token: string, paymentTokenId: string, extra: Record<string, unknown> = {}) {
  return orderBody(token, {
    email: EXPRESS_PAYER_FORM.email,
    ship_fname: 'Pat',
    ship_lname: 'Payer',
    ship_address1: EXPRESS_PAYER_FORM.ship_address1,
    ship_city: EXPRESS_PAYER_FORM.ship_city,
    ship_state: EXPRESS_PAYER_FORM.ship_state,
    ship_zipcode: EXPRESS_PAYER_FORM.ship_zipcode,
    same_address: false,
    payment: { method: 'paypal', payment_token_id: paymentTokenId },
    ...extra,
  });
}

describe('express (PayPal-style) payment', () => {
  it('redirects to the approval step, returns with the token and the payer, and completes the order', async () => {
    const { store, shopper } = await setup();
    const token = await store.cart([{ offer_id: store.offers.beans.id }]);
    const { cart, url } = await startExpress(shopper, token);
    expect(cart.order.status).toBe('awaiting_payment');
    expect(url.origin).toBe(TEST_PUBLIC_URL);
    expect(url.pathname).toMatch(/^\/checkout\/api\/test-gateway\/approve\/pt_[A-Za-z0-9]{24}$/);

    const approvalPage = await t.app.inject({ method: 'GET', url: url.pathname });
    expect(approvalPage.statusCode).toBe(200);
    expect(approvalPage.body).toContain('<label for="payer-email">Email</label>');
    expect(approvalPage.body).toContain('$18.00');

    const approved = await decide(url, 'approve');
    expect(approved.statusCode).toBe(303);
    const back = new URL(approved.headers.location as string);
    expect(back.origin + back.pathname).toBe(`${TEST_PUBLIC_URL}/checkout/${token}`);
    const paymentTokenId = back.searchParams.get('payment_token_id') ?? '';

    const read = PaymentTokenSchema.parse(
      (await shopper.get(`carts/${token}/payment_tokens/${paymentTokenId}`)).body,
    );
    expect(read).toEqual({
      payment_token_id: paymentTokenId,
      provider: 'test',
      status: 'approved',
      // What the payer approved: the total before their address priced shipping and tax (charged: 24.49).
      amount: 18,
      currency: 'USD',
      payer: { ...EXPRESS_PAYER_FORM, ship_fname: 'Pat', ship_lname: 'Payer' },
    });

    const orderId = cart.order.order_id;
    const completed = await shopper.put(`orders/${orderId}`, completionBody(token, paymentTokenId));
    expect(completed.status, JSON.stringify(completed.body)).toBe(200);
    expect(completed.body).toMatchObject({
      order: { status: 'complete' },
      payment_method_id: 2,
      customer: { email: 'pat@example.com' },
    });
    const detail = (await store.api.get(`/orders/${orderId}`)).body;
    expect(detail.payment_attempts).toEqual([
      expect.objectContaining({ method: 'paypal', status: 'approved', amount: 24.49 }),
    ]);
    expect((await shopper.get(`carts/${token}/payment_tokens/${paymentTokenId}`)).body.status).toBe('used');

    // The approval step cannot be replayed, and the paid order cannot be paid again.
    expect((await t.app.inject({ method: 'GET', url: url.pathname })).statusCode).toBe(410);
    expect((await shopper.put(`orders/${orderId}`, completionBody(token, paymentTokenId))).status).toBe(409);
  });

  it('comes back cancelled, refuses the token, and lets the shopper pay by card instead', async () => {
    const { store, shopper } = await setup();
    const token = await store.cart([{ offer_id: store.offers.beans.id }]);
    const { cart, url } = await startExpress(shopper, token);
    const cancelled = await decide(url, 'cancel');
    expect(cancelled.statusCode).toBe(303);
    const paymentTokenId =
      new URL(cancelled.headers.location as string).searchParams.get('payment_token_id') ?? '';
    expect((await shopper.get(`carts/${token}/payment_tokens/${paymentTokenId}`)).body).toMatchObject({
      status: 'cancelled',
      payer: null,
    });

    const refused = await shopper.put(`orders/${cart.order.order_id}`, completionBody(token, paymentTokenId));
    expect(refused.status).toBe(422);
    expect(refused.body).toEqual({
      status: 422,
      code: 'express_payment_cancelled',
      message: 'You canceled the PayPal payment. Choose how you want to pay.',
    });
    const byCard = await shopper.put(`orders/${cart.order.order_id}`, orderBody(token));
    expect(byCard.body.order.status).toBe('complete');
  });

  it('starts on the order a declined card left, and completes that same order with both attempts kept', async () => {
    const { store, shopper } = await setup();
    const token = await store.cart([{ offer_id: store.offers.beans.id }]);
    const declined = await shopper.post('orders', orderBody(token, { payment: card(CARDS.declined) }));
    expect(declined.status).toBe(402);
    const before = CartSchema.parse((await shopper.get(`carts/${token}`)).body);
    expect(before.order.status).toBe('declined');
    const orderId = before.order.order_id;

    const started = await shopper.put(
      `orders/${orderId}`,
      { cart_token: token, payment: { method: 'paypal' } },
      { 'idempotency-key': `express-again-${token}` },
    );
    expect(started.status, JSON.stringify(started.body)).toBe(200);
    expect(started.body.action.type).toBe('redirect');
    const cart = CartSchema.parse(started.body);
    expect(cart.order).toMatchObject({ order_id: orderId, status: 'awaiting_payment' });
    const paymentTokenId = await approve(new URL(started.body.action.url as string));

    const completed = await shopper.put(`orders/${orderId}`, completionBody(token, paymentTokenId));
    expect(completed.status, JSON.stringify(completed.body)).toBe(200);
    expect(completed.body.order).toMatchObject({ order_id: orderId, status: 'complete' });
    const detail = (await store.api.get(`/orders/${orderId}`)).body;
    expect(detail.payment_attempts).toEqual([
      expect.objectContaining({ method: 'card', status: 'declined' }),
      expect.objectContaining({ method: 'paypal', status: 'approved', amount: 24.49 }),
    ]);
    const orders = (await store.api.get('/orders')).body.data as { order_id: number }[];
    expect(orders.map((order) => order.order_id)).toEqual([orderId]);
  });

  it('captures the final total the shopper confirms after the address added shipping and tax', async () => {
    const { store, shopper } = await setup();
    const token = await store.cart([{ offer_id: store.offers.beans.id }]);
    const { cart, url } = await startExpress(shopper, token);
    const paymentTokenId = await approve(url);
    const completed = await shopper.put(
      `orders/${cart.order.order_id}`,
      completionBody(token, paymentTokenId),
    );
    expect(completed.status, JSON.stringify(completed.body)).toBe(200);
    // 18.00 approved before the address was known; 18.00 + 5.00 shipping + 8.25% Texas tax on the items confirmed.
    expect(completed.body).toMatchObject({ total: 24.49, total_tax: 1.49, total_campaign_shipping: 5 });
    const detail = (await store.api.get(`/orders/${cart.order.order_id}`)).body;
    expect(detail.payment_attempts).toEqual([
      expect.objectContaining({ method: 'paypal', amount: 24.49, status: 'approved' }),
    ]);
    const { rows } = await t.db.query<{ amount: number }>(
      "SELECT amount FROM test_gateway_charges WHERE organization_id = $1 AND kind = 'express'",
      [store.org.id],
    );
    expect(rows).toEqual([{ amount: 2449 }]);
  });

  it('answers a repeated start and a repeated completion with the same key with the first answers, capturing once', async () => {
    const { store, shopper } = await setup();
    const token = await store.cart([{ offer_id: store.offers.beans.id }]);
    // A double press of the express button sends the same key twice: one approval link.
    const { cart, url } = await startExpress(shopper, token);
    const again = await startExpress(shopper, token);
    expect(again.url.href).toBe(url.href);
    const paymentTokenId = await approve(url);

    // The completion's answer was lost; the page sends it again with its key.
    const headers = { 'idempotency-key': `complete-${token}` };
    const orderPath = `orders/${cart.order.order_id}`;
    const first = await shopper.put(orderPath, completionBody(token, paymentTokenId), headers);
    const retried = await shopper.put(orderPath, completionBody(token, paymentTokenId), headers);
    expect(first.status, JSON.stringify(first.body)).toBe(200);
    expect(first.body.order.status).toBe('complete');
    expect(retried.status).toBe(200);
    expect(retried.body).toEqual(first.body);
    const { rows } = await t.db.query<{ n: number }>(
      "SELECT count(*)::int AS n FROM test_gateway_charges WHERE organization_id = $1 AND kind = 'express'",
      [store.org.id],
    );
    expect(rows[0]?.n).toBe(1);
    expect((await store.api.get(`/orders/${cart.order.order_id}`)).body.payment_attempts).toHaveLength(1);
  });

  it('refuses an approval that expired', async () => {
    const { store, shopper } = await setup();
    const token = await store.cart([{ offer_id: store.offers.beans.id }]);
    const started = await startExpress(shopper, token);
    const paymentTokenId = await approve(started.url);
    t.clock.advance(4 * 3_600_000);
    try {
      const later = await shopperSession(t.app, store.org.publicId);
      expect((await later.get(`carts/${token}/payment_tokens/${paymentTokenId}`)).body.status).toBe(
        'expired',
      );
      const expired = await later.put(
        `orders/${started.cart.order.order_id}`,
        completionBody(token, paymentTokenId),
      );
      expect(expired.body).toEqual({
        status: 422,
        code: 'express_payment_expired',
        message: 'The PayPal approval has expired. Start PayPal again.',
      });
    } finally {
      t.clock.advance(-4 * 3_600_000);
    }
  });

  it("does not let one cart use another cart's payment", async () => {
    const { store, shopper } = await setup();
    const first = await store.cart([{ offer_id: store.offers.beans.id }]);
    const second = await store.cart([{ offer_id: store.offers.beans.id }]);
    const { url } = await startExpress(shopper, first);
    const paymentTokenId = await approve(url);
    const started = await startExpress(shopper, second);
    const response = await shopper.put(
      `orders/${started.cart.order.order_id}`,
      completionBody(second, paymentTokenId),
    );
    expect(response.status).toBe(404);
    expect(response.body.code).toBe('payment_token_not_found');
    expect((await shopper.get(`carts/${second}/payment_tokens/${paymentTokenId}`)).status).toBe(404);
  });

  it("checks the payer's details on the approval page", async () => {
    const { store, shopper } = await setup();
    const token = await store.cart([{ offer_id: store.offers.beans.id }]);
    const { url } = await startExpress(shopper, token);
    const invalid = await decide(url, 'approve', { ...EXPRESS_PAYER_FORM, email: 'pat@', ship_zipcode: '1' });
    expect(invalid.statusCode).toBe(422);
    expect(invalid.body).toContain('Enter an email address like name@example.com.');
    expect(invalid.body).toContain('Enter a ZIP code like 95014.');
    expect(invalid.body).toContain('aria-invalid="true"');
    expect(
      (await t.app.inject({ method: 'GET', url: '/checkout/api/test-gateway/approve/pt_unknown' }))
        .statusCode,
    ).toBe(410);
  });

  it("speaks the cart's language on the approval page and in its field problems (Spanish)", async () => {
    const { store, shopper } = await setup();
    const token = await store.cart([{ offer_id: store.offers.beans.id }]);
    expect((await shopper.put(`carts/${token}/language`, { language: 'es' })).status).toBe(200);
    const { url } = await startExpress(shopper, token);

    // The browser asks for English: the checkout page's language (kept with the cart) wins.
    const shown = await t.app.inject({
      method: 'GET',
      url: url.pathname,
      headers: { 'accept-language': 'en-US' },
    });
    expect(shown.statusCode).toBe(200);
    expect(shown.body).toContain('<html lang="es" dir="ltr">');
    expect(shown.body).toContain('<title>Aprueba tu pago</title>');
    expect(shown.body).toContain('<label for="payer-email">Correo electrónico</label>');
    expect(shown.body).toContain('<label for="payer-ship_state">Estado</label>');
    expect(shown.body).toContain('>Aprobar y continuar</button>');
    expect(shown.body).toContain('<option value="US" selected>Estados Unidos</option>');
    expect(shown.body).toContain(
      new Intl.NumberFormat('es', { style: 'currency', currency: 'USD' }).format(18),
    );
    expect(shown.body).not.toContain('Approve your payment');
    expect(shown.body).not.toContain('$18.00');

    const invalid = await decide(url, 'approve', {
      ...EXPRESS_PAYER_FORM,
      email: 'pat@',
      ship_zipcode: '1',
      ship_address2: '4242 4242 4242 4242',
    });
    expect(invalid.statusCode).toBe(422);
    expect(invalid.body).toContain('<html lang="es" dir="ltr">');
    expect(invalid.body).toContain('Revisa los campos marcados.');
    expect(invalid.body).toContain('Introduce un correo electrónico como nombre@ejemplo.com.');
    expect(invalid.body).toContain('Introduce un código ZIP como 95014.');
    expect(invalid.body).toContain(
      'Esto parece un número de tarjeta. Introduce los datos de la tarjeta solo en los campos de pago.',
    );
    // The card number is never written back into the form.
    expect(invalid.body).not.toMatch(/4242\s*4242/);
    expect(invalid.body).not.toContain('Enter an email address');
  });

  it('is written right to left in Arabic, its refusals too, and the form answers in the language it was shown in', async () => {
    const { store, shopper } = await setup();
    const token = await store.cart([{ offer_id: store.offers.beans.id }]);
    expect((await shopper.put(`carts/${token}/language`, { language: 'ar' })).status).toBe(200);
    const { url } = await startExpress(shopper, token);

    const shown = await t.app.inject({ method: 'GET', url: url.pathname });
    expect(shown.statusCode).toBe(200);
    expect(shown.body).toContain('<html lang="ar" dir="rtl">');
    expect(shown.body).toContain('<h1>وافق على الدفعة</h1>');
    expect(shown.body).toContain('<label for="payer-ship_zipcode">الرمز البريدي (ZIP)</label>');
    expect(shown.body).toContain(`action="${url.pathname}?lang=ar"`);

    const invalid = await t.app.inject({
      method: 'POST',
      url: `${url.pathname}?lang=ar`,
      headers: { 'content-type': 'application/x-www-form-urlencoded', 'accept-language': 'en' },
      payload: new URLSearchParams({ ...EXPRESS_PAYER_FORM, email: 'pat@', decision: 'approve' }).toString(),
    });
    expect(invalid.statusCode).toBe(422);
    expect(invalid.body).toContain('<html lang="ar" dir="rtl">');
    expect(invalid.body).toContain('أدخل عنوان بريد إلكتروني مثل name@example.com.');
    expect(invalid.body).toContain('aria-invalid="true"');

    // Once decided, the page says so in Arabic as well.
    await approve(url);
    const again = await t.app.inject({ method: 'GET', url: url.pathname });
    expect(again.statusCode).toBe(410);
    expect(again.body).toContain('<html lang="ar" dir="rtl">');
    expect(again.body).toContain('سبقت الموافقة على هذه الدفعة');
  });

  it("says an unknown payment in the browser's language", async () => {
    const unknown = await t.app.inject({
      method: 'GET',
      url: '/checkout/api/test-gateway/approve/pt_unknown',
      headers: { 'accept-language': 'ja-JP,ja;q=0.9' },
    });
    expect(unknown.statusCode).toBe(410);
    expect(unknown.body).toContain('<html lang="ja" dir="ltr">');
    expect(unknown.body).toContain('このお支払いは存在しません。');
  });

  it('returns to the test-mode checkout in test mode', async () => {
    const { store } = await setup();
    const tester = await shopperSession(t.app, store.org.publicId, { testMode: true });
    const token = await store.cart([{ offer_id: store.offers.beans.id }]);
    const { url } = await startExpress(tester, token);
    const back = new URL((await decide(url, 'approve')).headers.location as string);
    expect(back.searchParams.get('cypress')).toBe('1');
  });

  it('stores the payer for later cycles of a subscription paid this way', async () => {
    const { store, shopper } = await setup();
    await store.api.patch(`/shipping-profiles/${store.profiles.standard.id}`, { price: 0 });
    const token = await store.cart([{ offer_id: store.offers.club.id }]);
    await shopper.get(`carts/${token}/preview`, { ship_country: 'US', ship_state: 'TX' });
    const { cart, url } = await startExpress(shopper, token);
    const paymentTokenId = await approve(url);
    const completed = await shopper.put(
      `orders/${cart.order.order_id}`,
      completionBody(token, paymentTokenId, { subscription_terms_accepted: true }),
    );
    expect(completed.status, JSON.stringify(completed.body)).toBe(200);
    const subscription = (await store.api.get('/subscriptions')).body.data[0];
    expect(subscription.payment_method).toEqual({ method: 'paypal', card_brand: null, card_last4: null });
  });
});
