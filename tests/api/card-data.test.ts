import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { card, CARDS, orderBody } from '../helpers/order-body.js';
import { shopperSession, type ShopperSession } from '../helpers/shopper.js';
import { createStore, type Store } from '../helpers/store.js';
import { createTestApp, type JsonResponse, type TestApp } from '../helpers/test-app.js';

const TEST_CARD = '4242424242424242';
const NUMBERS = [...Object.values(CARDS), TEST_CARD];
/** Every way a number may be written down: plain, grouped by spaces, grouped by dashes. */
const SPELLINGS = NUMBERS.flatMap((number) => [
  number,
  number.replace(/(\d{4})(?=\d)/g, '$1 '),
  number.replace(/(\d{4})(?=\d)/g, '$1-'),
]);

let t: TestApp;
let store: Store;
let shopper: ShopperSession;
const responses: JsonResponse[] = [];

beforeAll(async () => {
  t = await createTestApp();
  store = await createStore(t.app, t.db, { testCards: [TEST_CARD] });
  shopper = await shopperSession(t.app, store.org.publicId);
});

afterAll(async () => {
  await t.close();
});

async function order(body: Record<string, unknown>, method: 'post' | 'put' = 'post', path = 'orders') {
  const response = method === 'post' ? await shopper.post(path, body) : await shopper.put(path, body);
  responses.push(response);
  return response;
}

describe('card numbers and CVVs are kept nowhere', () => {
  it('walks every payment path with every test number, written as shoppers type them', async () => {
    const outcomes: number[] = [];
    for (const number of NUMBERS) {
      const token = await store.cart([{ offer_id: store.offers.club.id }]);
      const typed = number.replace(/(\d{4})(?=\d)/g, '$1 ');
      const response = await order(
        orderBody(token, {
          payment: card(typed, { test_cards: [TEST_CARD] }),
          subscription_terms_accepted: true,
        }),
      );
      outcomes.push(response.status);
      if (response.status !== 200) {
        // Retry the kept order with a good card: the attempts of both are recorded.
        const orderId = (await shopper.get(`carts/${token}`)).body.order.order_id;
        if (orderId)
          outcomes.push(
            (await order(orderBody(token, { subscription_terms_accepted: true }), 'put', `orders/${orderId}`))
              .status,
          );
      }
    }
    // visa, mastercard, discover, amex; declined and insufficient funds (each then paid); the processor's error (then
    // paid); 3-D Secure (waiting for the challenge); the organization's test card.
    expect(outcomes).toEqual([200, 200, 200, 200, 402, 200, 402, 200, 503, 200, 200, 200]);

    // Wrong places: a card number in text fields is refused, not stored.
    const token = await store.cart([
      { offer_id: store.offers.beans.id },
      { offer_id: store.offers.mug.id, is_gift: true },
    ]);
    const misplaced = await order(
      orderBody(token, { ship_address2: `card ${CARDS.visa}`, email: `${CARDS.mastercard}@example.com` }),
    );
    expect(misplaced.status).toBe(422);
    expect(misplaced.body.fields).toMatchObject({
      ship_address2: 'This looks like a card number. Enter card details only in the payment fields.',
      email: 'This looks like a card number. Enter card details only in the payment fields.',
    });
    const line = (await shopper.get(`carts/${token}`)).body.offers[1].id;
    const gift = await shopper.patch(`order_offers/${line}/gift`, {
      order_offer_id: line,
      cart_token: token,
      gift_name: 'Grace',
      gift_email: 'grace@example.com',
      gift_date: '2026-12-24',
      gift_message: `Use my card ${CARDS.amex}`,
    });
    responses.push(gift);
    expect(gift.body.fields).toEqual({
      gift_message: 'This looks like a card number. Enter card details only in the payment fields.',
    });

    // Card details sent to the store itself, as a number or as text, are refused without echoing them.
    const raw = await order(
      orderBody(token, { payment: { method: 'card', card_number: CARDS.visa, card_cvv: '12345' } }),
    );
    expect(raw).toMatchObject({ status: 422, body: { code: 'card_data_refused' } });
    responses.push(
      await order(orderBody(token, { payment: { method: 'card', card_number: 4111111111111111 } })),
    );
    responses.push(
      await shopper.post('client-errors', {
        message: `failed for ${CARDS.discover}`,
        stack: `cvv 123 ${CARDS.visa}`,
      }),
    );
    responses.push(...(await Promise.all([store.api.get('/orders'), store.api.get('/subscriptions')])));
    for (const id of (await store.api.get('/orders')).body.data.map(
      (o: { order_id: number }) => o.order_id,
    )) {
      responses.push(await store.api.get(`/orders/${id}`));
    }
  });

  it('finds none of them in any log line, database row or response', async () => {
    const { rows: tables } = await t.db.query<{ table_name: string }>(
      `SELECT table_name FROM information_schema.tables WHERE table_schema = current_schema() AND table_type = 'BASE TABLE'`,
    );
    expect(tables.length).toBeGreaterThan(15);
    const rows: string[] = [];
    for (const { table_name: table } of tables) {
      const { rows: dump } = await t.db.query<{ row: string }>(
        `SELECT row_to_json(x)::text AS row FROM ${table} x`,
      );
      rows.push(...dump.map((entry) => entry.row));
    }
    expect(rows.join('\n')).toContain('"card_last4":"1111"');

    // The organization's testCards setting (docs/checkout-rules.md#client-options) names the test number on purpose.
    const database = rows.join('\n').replace(/"testCards":\s*\[\s*"\d+"\s*\]/g, '"testCards":[…]');
    expect(database).toContain('"testCards":[…]');
    const places = {
      logs: t.logs.join('\n'),
      database,
      responses: responses.map((response) => JSON.stringify(response.body)).join('\n'),
    };
    expect(places.logs.length).toBeGreaterThan(1000);
    for (const [place, text] of Object.entries(places)) {
      for (const spelling of SPELLINGS) expect(text, `${spelling} in ${place}`).not.toContain(spelling);
      expect(text, `a CVV value in ${place}`).not.toMatch(/"card_cvv"\s*:\s*"\d/);
    }
  });
});
