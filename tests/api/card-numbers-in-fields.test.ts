import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { AUSTIN, card, CARDS, EXPRESS_PAYER_FORM, orderBody } from '../helpers/order-body.js';
import type { ShopperSession } from '../helpers/shopper.js';
import { storeWithShopper, type Store } from '../helpers/store.js';
import { createTestApp, type JsonResponse, type TestApp } from '../helpers/test-app.js';

// A card number typed into any field a shopper sends is refused before anything is stored or answered
// (docs/security.md, "Input"); none takes one: cards are typed only into the processor's frame (docs/payments.md).

const MESSAGE = 'This looks like a card number. Enter card details only in the payment fields.';

/** The same numbers as shoppers type them into the wrong field. */
const TYPED = [
  CARDS.visa,
  '5555 5555 5555 4444',
  '6011.1111.1111.1117',
  '3782_822463_10005',
  '4111\t1111\t1111\t1111',
  '5555%205555%205555%204444',
  '4111  1111  1111  1111',
];
const DIGITS = [CARDS.visa, CARDS.mastercard, CARDS.discover, CARDS.amex];

let t: TestApp;
let store: Store;
let shopper: ShopperSession;

beforeAll(async () => {
  t = await createTestApp();
  ({ store, shopper } = await storeWithShopper(t.app, t.db));
});

afterAll(async () => {
  await t.close();
});

/** Neither the number nor any of its spellings is in the answer. */
function expectNotEchoed(response: { body: unknown } | { payload: string }) {
  const text = 'payload' in response ? response.payload : JSON.stringify(response.body);
  for (const digits of DIGITS) expect(text).not.toContain(digits);
  for (const typed of TYPED) expect(text).not.toContain(JSON.stringify(typed).slice(1, -1));
}

function expectRefused(response: JsonResponse, field: string) {
  expect(response.status, JSON.stringify(response.body)).toBe(422);
  expect(response.body.code).toBe('validation_failed');
  expect(response.body.fields[field]).toBe(MESSAGE);
  expectNotEchoed(response);
}

async function storedPreview(token: string): Promise<unknown> {
  const { rows } = await t.db.query<{ preview: unknown }>('SELECT preview FROM carts WHERE token = $1', [
    token,
  ]);
  return rows[0]?.preview;
}

/** Every row of every table, as text. */
async function everyRow(): Promise<string> {
  const { rows: tables } = await t.db.query<{ table_name: string }>(
    `SELECT table_name FROM information_schema.tables WHERE table_schema = current_schema() AND table_type = 'BASE TABLE'`,
  );
  const rows: string[] = [];
  for (const { table_name: table } of tables) {
    const { rows: dump } = await t.db.query<{ row: string }>(
      `SELECT row_to_json(x)::text AS row FROM ${table} x`,
    );
    rows.push(...dump.map((entry) => entry.row));
  }
  return rows.join('\n');
}

describe('a card number in a field that is stored or answered is refused', () => {
  it('refuses it in every preview parameter, keeps the stored preview, and so never copies it into an order', async () => {
    const token = await store.cart([{ offer_id: store.offers.beans.id }]);
    const address = {
      ship_country: 'US',
      ship_state: 'TX',
      ship_zipcode: '73301',
      ship_city: 'Austin',
      bill_country: 'US',
      bill_state: 'TX',
      bill_zipcode: '73301',
      same_address: 'true',
      version: '1',
    };
    expect((await shopper.get(`carts/${token}/preview`, address)).status).toBe(200);
    const before = { row: await storedPreview(token), cart: (await shopper.get(`carts/${token}`)).body };
    expect(before.row).toMatchObject({ ship_zipcode: '73301', ship_city: 'Austin' });

    for (const field of [
      'ship_zipcode',
      'ship_city',
      'ship_state',
      'bill_zipcode',
      'bill_state',
      'version',
    ]) {
      for (const typed of TYPED) {
        const response = await shopper.get(`carts/${token}/preview`, { ...address, [field]: typed });
        expectRefused(response, field);
        // The preview's answer is shown by its message alone, so the message says it too.
        expect(response.body.message).toBe(MESSAGE);
      }
    }
    // The version is answered as sent, and a parameter sent twice arrives as a list: both are checked.
    const twice = await t.app.inject({
      method: 'GET',
      url: `/checkout/api/vrio/carts/${token}/preview?ship_country=US&ship_city=Austin&ship_city=${CARDS.visa}`,
      headers: { authorization: `Bearer ${shopper.accessToken}`, 'csrf-token': shopper.csrfToken },
    });
    expect(twice.statusCode).toBe(422);
    expectNotEchoed(twice);

    expect(await storedPreview(token)).toEqual(before.row);
    expect((await shopper.get(`carts/${token}`)).body).toEqual(before.cart);

    const ordered = await shopper.post('orders', orderBody(token), { 'idempotency-key': `preview-${token}` });
    expect(ordered.status).toBe(200);
    expectNotEchoed(ordered);
  });

  it('refuses it as a discount code, without saying it back, and keeps the code the cart had', async () => {
    const token = await store.cart([{ offer_id: store.offers.beans.id }]);
    expect((await shopper.put(`carts/${token}/discount_code`, { discount_code: 'WELCOME10' })).status).toBe(
      200,
    );
    for (const typed of TYPED) {
      expectRefused(
        await shopper.put(`carts/${token}/discount_code`, { discount_code: typed }),
        'discount_code',
      );
    }
    expect((await shopper.get(`carts/${token}`)).body).toMatchObject({
      discount_code: 'WELCOME10',
      total_discount: 1.8,
    });
  });

  it("refuses it in every gift field and keeps the line's recipient as it was", async () => {
    const token = await store.cart([{ offer_id: store.offers.mug.id, is_gift: true }]);
    const line = (await shopper.get(`carts/${token}`)).body.offers[0].id as number;
    const gift = {
      order_offer_id: line,
      cart_token: token,
      gift_name: 'Grace',
      gift_email: 'grace@example.com',
      gift_date: '2030-12-24',
      gift_message: 'Happy birthday',
      gift_phone: '+1 512 555 0100',
      order_offer_notes: 'Leave at the door',
    };
    expect((await shopper.patch(`order_offers/${line}/gift`, gift)).status).toBe(200);
    const before = (await shopper.get(`carts/${token}`)).body.offers[0];

    for (const field of [
      'gift_name',
      'gift_email',
      'gift_message',
      'gift_phone',
      'order_offer_notes',
      'gift_date',
    ]) {
      for (const typed of TYPED.slice(0, 3)) {
        expectRefused(
          await shopper.patch(`order_offers/${line}/gift`, { ...gift, [field]: `for ${typed}` }),
          field,
        );
      }
    }
    expect((await shopper.get(`carts/${token}`)).body.offers[0]).toEqual(before);
  });

  it('refuses it in any other field of an order, a field name or a number, and stores no order', async () => {
    const token = await store.cart([{ offer_id: store.offers.beans.id }]);
    const cases: [Record<string, unknown>, string][] = [
      [{ ship_address2: 'Apt 4111.1111.1111.1111' }, 'ship_address2'],
      [{ ship_city: '6011_1111_1111_1117' }, 'ship_city'],
      [{ bill_zipcode: '3782 822463 10005', same_address: false }, 'bill_zipcode'],
      [{ ip_address: CARDS.mastercard }, 'ip_address'],
      [{ shipping_profile_id: Number(CARDS.visa) }, 'shipping_profile_id'],
      [{ [CARDS.visa]: 'x' }, '[card ••••1111]'],
    ];
    for (const [fields, field] of cases) {
      const response = await shopper.post('orders', orderBody(token, fields), {
        'idempotency-key': `fields-${field}`,
      });
      expectRefused(response, field);
    }
    expect((await shopper.get(`carts/${token}`)).body.order.order_id).toBeNull();
  });

  it('refuses it in the quantity and handshake calls too', async () => {
    const token = await store.cart([{ offer_id: store.offers.beans.id }], {
      customer: { email: 'ada@example.com', ship_country: 'US' },
    });
    const line = (await shopper.get(`carts/${token}`)).body.offers[0].id as number;
    expectRefused(
      await shopper.put(`carts/${token}/quantity`, {
        id: line,
        quantity: 2,
        ip_address: '4111 1111 1111 1111',
      }),
      'ip_address',
    );
    const authorize = await t.app.inject({
      method: 'POST',
      url: '/checkout/api/authorize',
      headers: { 'csrf-token': shopper.csrfToken },
      payload: { organization: store.org.publicId, ip_address: '4111.1111.1111.1111' },
    });
    expect(authorize.statusCode).toBe(422);
    expect(authorize.json().fields).toEqual({ ip_address: MESSAGE });
    expectNotEchoed(authorize);
    expect((await shopper.get(`carts/${token}`)).body.offers[0].order_offer_quantity).toBe(1);
  });

  it("refuses it on the test provider's approval page without writing it back into the form", async () => {
    const token = await store.cart([{ offer_id: store.offers.beans.id }]);
    const started = await shopper.post(
      'orders',
      { cart_token: token, payment: { method: 'paypal' } },
      { 'idempotency-key': `express-${token}` },
    );
    const url = new URL(started.body.action.url as string);
    const paymentTokenId = url.pathname.split('/').pop() ?? '';
    const refused = await t.app.inject({
      method: 'POST',
      url: url.pathname,
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
      payload: new URLSearchParams({
        ...EXPRESS_PAYER_FORM,
        ship_address2: '4111.1111.1111.1111',
        decision: 'approve',
      }).toString(),
    });
    expect(refused.statusCode).toBe(422);
    expect(refused.payload).toContain(MESSAGE);
    expect(refused.payload).toContain(
      'id="payer-ship_address2" name="ship_address2" type="text" autocomplete="address-line2" value=""',
    );
    expectNotEchoed(refused);
    expect((await shopper.get(`carts/${token}/payment_tokens/${paymentTokenId}`)).body).toMatchObject({
      status: 'created',
      payer: null,
    });
  });

  it("takes a card number only in the processor's frame, and in a page error report, which is logged masked", async () => {
    const token = await store.cart([{ offer_id: store.offers.beans.id }]);
    const paid = await shopper.post(
      'orders',
      orderBody(token, { ...AUSTIN, payment: card('4111 1111 1111 1111') }),
      { 'idempotency-key': `paid-${token}` },
    );
    expect(paid.body.order.status).toBe('complete');

    const report = await shopper.post('client-errors', {
      message: 'TypeError: could not read 6011.1111.1111.1117',
      stack: 'at pay ({"card_cvv":"321"}) 5555%205555%205555%204444\tsecurity code 987',
      url: 'http://checkout.test/checkout/T?note=3782_822463_10005',
    });
    expect(report.status).toBe(204);
    const logged = t.logs.find((line) => line.includes('page error reported')) ?? '';
    expect(logged).toContain('could not read [card ••••1117]');
    expect(logged).toContain('[card ••••4444]');
    expect(logged).toContain('note=[card ••••0005]');
    expect(logged).toContain('security code [redacted]');
    expect(logged).not.toMatch(/(?:cvv|security code)(?:[\s\\":=]|%3D)*\d/i);
  });

  it('left no card number in any row of any table, nor in any log line', async () => {
    const rows = await everyRow();
    expect(rows).toContain('"card_last4":"1111"');
    const logs = t.logs.join('\n');
    for (const place of [rows, logs]) {
      for (const digits of DIGITS) expect(place).not.toContain(digits);
      for (const typed of TYPED) expect(place).not.toContain(JSON.stringify(typed).slice(1, -1));
    }
  });
});
