import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { gatewayCharges } from '../helpers/gateway-charges.js';
import { card, CARDS, orderBody } from '../helpers/order-body.js';
import { tokenizeCard } from '../helpers/shopper.js';
import { storeWithShopper } from '../helpers/store.js';
import {
  createTestApp,
  injectJson,
  processorOf,
  TEST_PROCESSOR_URL,
  type TestApp,
} from '../helpers/test-app.js';

// Orders pay with what the processor's frame made of the card, never the card (docs/payments.md).

let t: TestApp;

beforeAll(async () => {
  t = await createTestApp();
});

afterAll(async () => {
  await t.close();
});

const setup = () => storeWithShopper(t.app, t.db);

const typed = (number: string) => ({ number, cvv: '123', exp_month: 12, exp_year: 2030, test_cards: [] });

async function countRows(table: string, organizationId: number): Promise<number> {
  const { rows } = await t.db.query<{ n: number }>(
    `SELECT count(*)::int AS n FROM ${table} WHERE organization_id = $1`,
    [organizationId],
  );
  return rows[0]?.n ?? 0;
}

/** What the shopper does on the bank's challenge page, at the processor's origin. */
async function decideChallenge(url: string, result: 'complete' | 'fail') {
  const processor = processorOf(t.app);
  if (!processor) throw new Error('no test processor');
  const path = new URL(url).pathname;
  const page = await processor.inject({ method: 'GET', url: path });
  expect(page.statusCode).toBe(200);
  const answer = await injectJson(processor, {
    method: 'POST',
    url: path,
    headers: { origin: TEST_PROCESSOR_URL },
    payload: { result },
  });
  expect(answer.status).toBeLessThan(300);
}

describe('card details sent to the store', () => {
  it('refuses a body with card fields: 422, nothing charged, nothing stored, nothing logged', async () => {
    const { store, shopper } = await setup();
    const token = await store.cart([{ offer_id: store.offers.beans.id }]);
    const logsBefore = t.logs.length;
    const response = await shopper.post(
      'orders',
      orderBody(token, {
        payment: {
          method: 'card',
          card_number: '4111 1111 1111 1111',
          card_cvv: '737',
          card_exp_month: 12,
          card_exp_year: 2030,
        },
      }),
    );
    expect(response.status).toBe(422);
    expect(response.body).toMatchObject({
      code: 'card_data_refused',
      fields: {
        'payment.card_number': expect.stringMatching(/secure card fields/),
        'payment.card_cvv': expect.any(String),
      },
    });
    expect(JSON.stringify(response.body)).not.toMatch(/4111|737/);
    expect(await gatewayCharges(t.db, store.org.id)).toBe(0);
    expect(await countRows('orders', store.org.id)).toBe(0);
    expect(await countRows('payment_attempts', store.org.id)).toBe(0);
    expect(t.logs.slice(logsBefore).join('\n')).not.toMatch(/4111|1111 1111/);
  });
});

describe('card tokens', () => {
  it('charges a token once and refuses it when it comes again on another order', async () => {
    const { store, shopper } = await setup();
    const cardToken = await tokenizeCard(t.app, typed(CARDS.visa));
    const first = await store.cart([{ offer_id: store.offers.beans.id }]);
    const paid = await shopper.post(
      'orders',
      orderBody(first, { payment: { method: 'card', card_token: cardToken } }),
    );
    expect(paid.status).toBe(200);
    expect(paid.body.order.status).toBe('complete');

    const second = await store.cart([{ offer_id: store.offers.mug.id }]);
    const reused = await shopper.post(
      'orders',
      orderBody(second, { payment: { method: 'card', card_token: cardToken } }),
    );
    expect(reused.status).toBe(422);
    expect(reused.body.fields).toEqual({
      'payment.card_token': 'This card entry was already used or has expired. Enter your card again.',
    });
    expect(await gatewayCharges(t.db, store.org.id)).toBe(1);
  });

  it('refuses a token the processor never made', async () => {
    const { store, shopper } = await setup();
    const cart = await store.cart([{ offer_id: store.offers.beans.id }]);
    const response = await shopper.post(
      'orders',
      orderBody(cart, { payment: { method: 'card', card_token: 'tok_test_made_up' } }),
    );
    expect(response.status).toBe(422);
    expect(response.body.fields['payment.card_token']).toMatch(/Enter your card again/);
    expect(await gatewayCharges(t.db, store.org.id)).toBe(0);
  });

  it('records only what the processor said of the card: brand, last 4 and expiry', async () => {
    const { store, shopper } = await setup();
    const cart = await store.cart([{ offer_id: store.offers.beans.id }]);
    const paid = await shopper.post('orders', orderBody(cart, { payment: card(CARDS.mastercard) }));
    expect(paid.status).toBe(200);
    const detail = (await store.api.get(`/orders/${paid.body.order.order_id}`)).body;
    expect(detail.payment_attempts[0]).toMatchObject({
      card_brand: 'mastercard',
      card_last4: '4444',
      card_exp_month: 12,
      card_exp_year: 2030,
      status: 'approved',
    });
  });
});

describe('3-D Secure', () => {
  it('waits for the challenge, then completes the order once the bank says the shopper passed it', async () => {
    const { store, shopper } = await setup();
    const cart = await store.cart([{ offer_id: store.offers.beans.id }]);
    const asked = await shopper.post('orders', orderBody(cart, { payment: card(CARDS.authenticate) }));
    expect(asked.status).toBe(200);
    expect(asked.body.order.status).toBe('awaiting_payment');
    expect(asked.body.action).toMatchObject({
      type: 'authenticate',
      reference: expect.any(String),
      payment_action: {
        type: 'challenge',
        url: expect.stringMatching(/^http:\/\/processor\.test\/challenge\//),
      },
    });
    const { reference, payment_action } = asked.body.action;
    const orderId = asked.body.order.order_id;

    // Sent again before the shopper answered: still waiting, nothing completed.
    const early = await shopper.put(
      `orders/${orderId}`,
      orderBody(cart, { payment: { method: 'card', authenticated_payment: reference } }),
    );
    expect(early.body.order.status).toBe('awaiting_payment');
    expect(early.body.action?.type).toBe('authenticate');

    await decideChallenge(payment_action.url, 'complete');
    const done = await shopper.put(
      `orders/${orderId}`,
      orderBody(cart, { payment: { method: 'card', authenticated_payment: reference } }),
    );
    expect(done.status).toBe(200);
    expect(done.body.order.status).toBe('complete');
    expect(await gatewayCharges(t.db, store.org.id)).toBe(1);
    const detail = (await store.api.get(`/orders/${orderId}`)).body;
    expect(detail.payment_attempts.map((attempt: { status: string }) => attempt.status)).toEqual([
      'requires_action',
      'requires_action',
      'approved',
    ]);
    expect(detail.payment_attempts.at(-1)).toMatchObject({
      card_last4: '3184',
      gateway_reference: reference,
    });
  });

  it('leaves the order open with a message when the shopper fails it, and another card then pays', async () => {
    const { store, shopper } = await setup();
    const cart = await store.cart([{ offer_id: store.offers.beans.id }]);
    const asked = await shopper.post('orders', orderBody(cart, { payment: card(CARDS.authenticate) }));
    const { reference, payment_action } = asked.body.action;
    const orderId = asked.body.order.order_id;
    await decideChallenge(payment_action.url, 'fail');

    const failed = await shopper.put(
      `orders/${orderId}`,
      orderBody(cart, { payment: { method: 'card', authenticated_payment: reference } }),
    );
    expect(failed.status).toBe(402);
    expect(failed.body).toMatchObject({
      code: 'authentication_failed',
      message: 'Your bank could not confirm the payment. Nothing was charged; try again or use another card.',
    });
    const open = (await shopper.get(`carts/${cart}`)).body;
    expect(open.order.status).not.toBe('complete');

    const paid = await shopper.put(`orders/${orderId}`, orderBody(cart, { payment: card(CARDS.visa) }));
    expect(paid.status).toBe(200);
    expect(paid.body.order.status).toBe('complete');
  });

  it("refuses another order's authenticated payment, and one whose total changed since", async () => {
    const { store, shopper } = await setup();
    const mine = await store.cart([{ offer_id: store.offers.beans.id }]);
    const theirs = await store.cart([{ offer_id: store.offers.beans.id }]);
    const asked = await shopper.post('orders', orderBody(theirs, { payment: card(CARDS.authenticate) }));
    await decideChallenge(asked.body.action.payment_action.url, 'complete');
    const declined = await shopper.post('orders', orderBody(mine, { payment: card(CARDS.declined) }));
    expect(declined.status).toBe(402);
    const myOrder = (await shopper.get(`carts/${mine}`)).body.order.order_id;
    const stolen = await shopper.put(
      `orders/${myOrder}`,
      orderBody(mine, { payment: { method: 'card', authenticated_payment: asked.body.action.reference } }),
    );
    expect(stolen.status).toBe(422);
    expect(stolen.body.fields['payment.authenticated_payment']).toMatch(/not for this order/);

    // The bank was asked about one total; with a code applied since, the order costs less than was authenticated.
    expect((await shopper.put(`carts/${theirs}/discount_code`, { discount_code: 'WELCOME10' })).status).toBe(
      200,
    );
    const changed = await shopper.put(
      `orders/${asked.body.order.order_id}`,
      orderBody(theirs, { payment: { method: 'card', authenticated_payment: asked.body.action.reference } }),
    );
    expect(changed.status).toBe(422);
    expect(changed.body.fields['payment.authenticated_payment']).toMatch(/order changed/);
  });
});
