import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { CartSchema, PreviewResponseSchema } from '../../src/contract/cart.js';
import { CARDS, card, orderBody } from '../helpers/order-body.js';
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

describe('GET carts/{cart_token}', () => {
  it('answers the full cart with every amount computed on the server', async () => {
    const { store, shopper } = await setup();
    const token = await store.cart(
      [{ offer_id: store.offers.beans.id, quantity: 2 }, { offer_id: store.offers.mug.id }],
      {
        customer: { email: 'ada@example.com', ship_fname: 'Ada', ship_country: 'US' },
      },
    );
    const response = await shopper.get(`carts/${token}`);
    expect(response.status).toBe(200);
    const cart = CartSchema.parse(response.body);
    expect(cart).toMatchObject({
      cart_token: token,
      order: {
        order_id: null,
        status: 'open',
        // Created with its shipping country: it opens priced for that address, its cheapest method chosen.
        shipping_profile_id: '1',
        shipping_profiles: [
          { shipping_profile_id: '1', name: 'Standard', price: 0, free_over: 50 },
          { shipping_profile_id: '2', name: 'Express', price: 15, free_over: null },
        ],
        is_recurring: false,
        shipping_information_required: true,
        is_test: false,
        is_gift_claim: false,
      },
      customer: {
        email: 'ada@example.com',
        ship_fname: 'Ada',
        ship_country: 'US',
        same_address: true,
        bill_country: '',
      },
      subtotal: 50,
      subtotal_items: 50,
      total_discount: 0,
      total_offer_shipping: 2,
      total_campaign_shipping: 0,
      total_tax: 0,
      total_gift_cards: 0,
      total: 52,
      total_items: 3,
      currency_value: 'USD',
      payment_method_id: null,
      preview: { ship_country: 'US', same_address: true, shipping_profile_id: '1', total: 52 },
      editable: false,
    });
    expect(cart.offers[0]).toMatchObject({
      order_offer_id: cart.offers[0]?.id,
      offer_id: store.offers.beans.id,
      offer_name: 'Beans',
      offer_title: 'Ethiopia',
      item_id: 'BEANS',
      item_name: 'Coffee beans',
      item_image: 'https://cdn.example.com/beans.png',
      item_category: 'Coffee',
      items_option_variation_name: '340 g / Whole bean',
      order_offer_item_options: [
        { name: 'Size', value: '340 g' },
        { name: 'Grind', value: 'Whole bean' },
      ],
      order_offer_quantity: 2,
      item_price: 18,
      order_offer_price: 18,
      subtotal_offer: 36,
      discount: 0,
      discount_code: null,
      shipping: 0,
      total: 36,
      is_gift: false,
      gift_date: null,
      is_recurring: false,
      billing_interval_days: null,
      next_price: null,
    });
    expect(cart.offers[1]).toMatchObject({ shipping: 2, total: 16 });
  });

  it('shows a subscription line with its billing schedule', async () => {
    const { store, shopper } = await setup();
    const token = await store.cart([{ offer_id: store.offers.club.id }]);
    const cart = CartSchema.parse((await shopper.get(`carts/${token}`)).body);
    expect(cart.order.is_recurring).toBe(true);
    expect(cart.offers[0]).toMatchObject({
      is_recurring: true,
      billing_interval_days: 30,
      next_price: 25,
      next_cycle_total: 25,
    });
  });

  it("answers 404 with a message for unknown, malformed, expired and other organizations' carts", async () => {
    const { store, shopper } = await setup();
    const other = await setup();
    const foreign = await other.store.cart([{ offer_id: other.store.offers.beans.id }]);
    const expected = {
      status: 404,
      code: 'cart_not_found',
      message: 'This checkout link is no longer valid. Ask the store for a new one.',
    };
    for (const token of [
      'AAAAAAAAAAAAAAAAAAAAAAAA',
      'not a token',
      foreign,
      '__c__nope',
      '__g__AAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAA',
    ]) {
      const response = await shopper.get(`carts/${encodeURIComponent(token)}`);
      expect(response.status, token).toBe(404);
      expect(response.body).toEqual(expected);
    }
    const token = await store.cart([{ offer_id: store.offers.beans.id }]);
    t.clock.advance(31 * 86_400_000);
    try {
      const later = await shopperSession(t.app, store.org.publicId);
      expect((await later.get(`carts/${token}`)).body).toEqual(expected);
    } finally {
      t.clock.advance(-31 * 86_400_000);
    }
  });

  it('opens a fresh cart with its own token from a __c__ checkout link, with the link code', async () => {
    const { store, shopper } = await setup();
    await store.api.post('/checkout-links', {
      public_id: `link-${store.org.id}`,
      offers: [
        { offer_id: store.offers.beans.id, quantity: 2 },
        { offer_id: store.offers.mug.id, is_gift: true },
      ],
      discount_code: 'WELCOME10',
    });
    const first = CartSchema.parse((await shopper.get(`carts/__c__link-${store.org.id}`)).body);
    const second = CartSchema.parse((await shopper.get(`carts/__c__link-${store.org.id}`)).body);
    expect(first.cart_token).toMatch(/^[A-Za-z0-9]{24}$/);
    expect(second.cart_token).not.toBe(first.cart_token);
    expect(first.offers.map((o) => [o.offer_id, o.order_offer_quantity, o.is_gift])).toEqual([
      [store.offers.beans.id, 2, false],
      [store.offers.mug.id, 1, true],
    ]);
    expect(first).toMatchObject({ discount_code: 'WELCOME10', subtotal: 50, total_discount: 5 });
    // The new token is a plain cart now: reading it again answers the same cart.
    expect((await shopper.get(`carts/${first.cart_token}`)).body.cart_token).toBe(first.cart_token);
  });

  it('marks carts opened in test mode', async () => {
    const { store } = await setup();
    await store.api.post('/checkout-links', {
      public_id: `test-${store.org.id}`,
      offers: [{ offer_id: store.offers.beans.id }],
    });
    const tester = await shopperSession(t.app, store.org.publicId, { testMode: true });
    expect((await tester.get(`carts/__c__test-${store.org.id}`)).body.order.is_test).toBe(true);
  });
});

describe('PUT carts/{cart_token}/discount_code', () => {
  it('applies a code case-insensitively and removes it with an empty string', async () => {
    const { store, shopper } = await setup();
    const token = await store.cart([{ offer_id: store.offers.beans.id, quantity: 2 }]);
    const applied = await shopper.put(`carts/${token}/discount_code`, { discount_code: ' welcome10 ' });
    expect(applied.status).toBe(200);
    expect(CartSchema.parse(applied.body)).toMatchObject({
      discount_code: 'WELCOME10',
      total_discount: 3.6,
      subtotal_items: 32.4,
      total: 32.4,
    });
    expect(applied.body.offers[0]).toMatchObject({ discount: 3.6, discount_code: 'WELCOME10', total: 32.4 });
    expect((await shopper.get(`carts/${token}`)).body.total).toBe(32.4);

    const removed = await shopper.put(`carts/${token}/discount_code`, { discount_code: '' });
    expect(removed.body).toMatchObject({ discount_code: null, total_discount: 0, total: 36 });
  });

  it('applies a restricted code only to its offers', async () => {
    const { store, shopper } = await setup();
    const token = await store.cart([{ offer_id: store.offers.beans.id }, { offer_id: store.offers.mug.id }]);
    const cart = (await shopper.put(`carts/${token}/discount_code`, { discount_code: 'MUGLOVE' })).body;
    expect(cart.offers.map((o: { discount: number }) => o.discount)).toEqual([0, 3.5]);
  });

  it('refuses each kind of bad code with its own code and message', async () => {
    const { store, shopper } = await setup();
    const token = await store.cart([{ offer_id: store.offers.beans.id }]);
    const cases: [string, number, string, string][] = [
      ['NOPE', 404, 'discount_code_not_found', "We don't recognize the code NOPE. Check it and try again."],
      [
        'retired',
        404,
        'discount_code_not_found',
        "We don't recognize the code RETIRED. Check it and try again.",
      ],
      ['SUMMER24', 422, 'discount_code_expired', 'The code SUMMER24 expired on September 1, 2024.'],
      ['NEXTYEAR', 422, 'discount_code_not_started', 'The code NEXTYEAR can be used from January 1, 2030.'],
      [
        'SAVE5',
        422,
        'discount_code_minimum_not_met',
        'The code SAVE5 needs an order of $30.00 or more. Add $12.00 to use it.',
      ],
      [
        'MUGLOVE',
        422,
        'discount_code_not_applicable',
        'The code MUGLOVE is not valid for the items in your cart.',
      ],
    ];
    for (const [code, status, errorCode, message] of cases) {
      const response = await shopper.put(`carts/${token}/discount_code`, { discount_code: code });
      expect(response.status, code).toBe(status);
      expect(response.body, code).toEqual({ status, code: errorCode, message });
    }
    expect((await shopper.get(`carts/${token}`)).body.discount_code).toBeNull();
  });

  it('refuses a code whose uses are all taken', async () => {
    const { store, shopper } = await setup();
    const created = await store.create('/discount-codes', {
      code: 'ONCE',
      kind: 'fixed',
      amount_off: 1,
      usage_limit: 1,
    });
    await t.db.query('UPDATE discount_codes SET usage_count = 1 WHERE id = $1', [created.id]);
    const token = await store.cart([{ offer_id: store.offers.beans.id }]);
    const response = await shopper.put(`carts/${token}/discount_code`, { discount_code: 'once' });
    expect(response.body).toEqual({
      status: 422,
      code: 'discount_code_used_up',
      message: 'The code ONCE has been used as many times as it allows.',
    });
  });

  it('keeps a code that stops applying on the cart but says why and charges no discount', async () => {
    const { store, shopper } = await setup({ editable: { value: true, override: null } });
    const token = await store.cart([{ offer_id: store.offers.beans.id, quantity: 2 }]);
    await shopper.put(`carts/${token}/discount_code`, { discount_code: 'SAVE5' });
    const lineId = (await shopper.get(`carts/${token}`)).body.offers[0].id;
    const cart = (await shopper.put(`carts/${token}/quantity`, { id: lineId, quantity: 1 })).body;
    expect(cart).toMatchObject({
      discount_code: 'SAVE5',
      total_discount: 0,
      discount_notice: { code: 'discount_code_minimum_not_met' },
    });
  });

  it('refuses malformed bodies', async () => {
    const { store, shopper } = await setup();
    const token = await store.cart([{ offer_id: store.offers.beans.id }]);
    const response = await shopper.put(`carts/${token}/discount_code`, { discount_code: 5 });
    expect(response.status).toBe(422);
    expect(response.body.fields).toEqual({ discount_code: 'Enter a discount code.' });
  });
});

describe('GET carts/{cart_token}/preview', () => {
  it('computes shipping and tax for the address, stores it, and echoes the version', async () => {
    const { store, shopper } = await setup();
    const token = await store.cart([{ offer_id: store.offers.beans.id }, { offer_id: store.offers.mug.id }]);
    const response = await shopper.get(`carts/${token}/preview`, {
      ship_country: 'US',
      ship_state: 'TX',
      ship_zipcode: '73301',
      ship_city: 'Austin',
      bill_country: 'null',
      bill_state: 'null',
      bill_zipcode: 'null',
      same_address: 'true',
      shipping_profile_id: 'null',
      version: '7',
    });
    expect(response.status).toBe(200);
    const preview = PreviewResponseSchema.parse(response.body);
    expect(preview).toMatchObject({
      version: '7',
      subtotal: 32,
      total_offer_shipping: 2,
      total_campaign_shipping: 5,
      total_tax: 2.64,
      total: 41.64,
      notice: null,
      order: {
        shipping_profile_id: String(store.profiles.standard.id),
        shipping_profiles: [
          {
            shipping_profile_id: String(store.profiles.standard.id),
            name: 'Standard',
            price: 5,
            free_over: 50,
          },
          {
            shipping_profile_id: String(store.profiles.express.id),
            name: 'Express',
            price: 15,
            free_over: null,
          },
        ],
      },
      preview: {
        ship_country: 'US',
        ship_state: 'TX',
        ship_city: 'Austin',
        shipping_profile_id: String(store.profiles.standard.id),
        total: 41.64,
      },
    });
    const cart = CartSchema.parse((await shopper.get(`carts/${token}`)).body);
    expect(cart).toMatchObject({
      total: 41.64,
      total_tax: 2.64,
      order: { shipping_profile_id: String(store.profiles.standard.id) },
    });
    expect(cart.preview?.ship_zipcode).toBe('73301');
  });

  it('uses the chosen profile when it serves the country, else the cheapest with a notice', async () => {
    const { store, shopper } = await setup();
    const token = await store.cart([{ offer_id: store.offers.beans.id }]);
    const express = await shopper.get(`carts/${token}/preview`, {
      ship_country: 'US',
      shipping_profile_id: String(store.profiles.express.id),
    });
    expect(express.body).toMatchObject({ total_campaign_shipping: 15, notice: null });
    const wrong = await shopper.get(`carts/${token}/preview`, {
      ship_country: 'CA',
      shipping_profile_id: String(store.profiles.express.id),
    });
    expect(wrong.body).toMatchObject({
      total_campaign_shipping: 20,
      order: { shipping_profile_id: String(store.profiles.international.id) },
      notice: {
        code: 'shipping_profile_changed',
        message: "That shipping option isn't available for Canada; we chose International.",
      },
    });
  });

  it('makes a profile free past its threshold and says so in its price', async () => {
    const { store, shopper } = await setup();
    const token = await store.cart([{ offer_id: store.offers.beans.id, quantity: 3 }]);
    const preview = (await shopper.get(`carts/${token}/preview`, { ship_country: 'US' })).body;
    expect(preview.total_campaign_shipping).toBe(0);
    expect(preview.order.shipping_profiles[0]).toMatchObject({ name: 'Standard', price: 0, free_over: 50 });
  });

  it('without ship_country empties the profiles, clears the choice and drops the stored preview', async () => {
    const { store, shopper } = await setup();
    const token = await store.cart([{ offer_id: store.offers.beans.id }]);
    await shopper.get(`carts/${token}/preview`, { ship_country: 'US', ship_state: 'TX' });
    const cleared = await shopper.get(`carts/${token}/preview`, {
      ship_country: 'null',
      ship_state: '',
      version: '9',
    });
    expect(cleared.body).toMatchObject({
      version: '9',
      preview: null,
      total_campaign_shipping: 0,
      total_tax: 0,
      order: { shipping_profiles: [], shipping_profile_id: '' },
    });
    const cart = (await shopper.get(`carts/${token}`)).body;
    expect(cart).toMatchObject({ preview: null, total: 18, order: { shipping_profile_id: '' } });
  });

  it('says when nothing ships to the country', async () => {
    const { store, shopper } = await setup();
    const token = await store.cart([{ offer_id: store.offers.beans.id }]);
    const response = await shopper.get(`carts/${token}/preview`, { ship_country: 'JP' });
    expect(response.body.notice).toEqual({
      code: 'shipping_unavailable',
      message: "We don't ship to Japan. Choose another shipping address.",
    });
  });

  it('taxes a cart that ships nothing by its billing address', async () => {
    const { store, shopper } = await setup();
    const token = await store.cart([
      { offer_id: store.offers.beans.id, is_gift: false },
      { offer_id: store.offers.mug.id, is_gift: true },
    ]);
    const digital = await store.cart([{ offer_id: store.offers.mug.id, is_gift: true }]);
    const preview = (
      await shopper.get(`carts/${digital}/preview`, { bill_country: 'GB', same_address: 'false' })
    ).body;
    expect(preview).toMatchObject({
      order: { shipping_information_required: false },
      total_tax: 2.8,
      total: 18.8,
    });
    expect((await shopper.get(`carts/${token}`)).body.order.shipping_information_required).toBe(true);
  });

  it('refuses bad parameters with field messages', async () => {
    const { store, shopper } = await setup();
    const token = await store.cart([{ offer_id: store.offers.beans.id }]);
    const response = await shopper.get(`carts/${token}/preview`, {
      ship_country: 'XX',
      shipping_profile_id: 'abc',
      same_address: 'maybe',
    });
    expect(response.status).toBe(422);
    expect(response.body.fields).toEqual({
      ship_country: 'Use a two-letter ISO country code such as US.',
      shipping_profile_id: 'Choose one of the shipping options offered.',
      same_address: 'Use true or false.',
    });
    expect((await shopper.get(`carts/${token}/preview`, { planet: 'Mars' })).body.fields).toEqual({
      planet: 'This field is not expected here.',
    });
  });
});

describe('PUT carts/{cart_token}/quantity', () => {
  it('changes a quantity when the cart is editable and answers the new totals', async () => {
    const { store, shopper } = await setup({ editable: { value: true, override: null } });
    const token = await store.cart([{ offer_id: store.offers.beans.id }]);
    const cart = (await shopper.get(`carts/${token}`)).body;
    expect(cart.editable).toBe(true);
    const response = await shopper.put(`carts/${token}/quantity`, { id: cart.offers[0].id, quantity: 4 });
    expect(response.status).toBe(200);
    expect(response.body).toMatchObject({ total_items: 4, subtotal: 72, total: 72 });
    expect(response.body.offers[0].order_offer_quantity).toBe(4);
  });

  it('lets the override win over the value', async () => {
    const allowed = await setup({ editable: { value: false, override: true } });
    const allowedToken = await allowed.store.cart([{ offer_id: allowed.store.offers.beans.id }]);
    const allowedLine = (await allowed.shopper.get(`carts/${allowedToken}`)).body.offers[0].id;
    expect(
      (await allowed.shopper.put(`carts/${allowedToken}/quantity`, { id: allowedLine, quantity: 2 })).status,
    ).toBe(200);

    const refused = await setup({ editable: { value: true, override: false } });
    const refusedToken = await refused.store.cart([{ offer_id: refused.store.offers.beans.id }]);
    const refusedLine = (await refused.shopper.get(`carts/${refusedToken}`)).body.offers[0].id;
    const response = await refused.shopper.put(`carts/${refusedToken}/quantity`, {
      id: refusedLine,
      quantity: 2,
    });
    expect(response.status).toBe(409);
    expect(response.body).toEqual({
      status: 409,
      code: 'cart_not_editable',
      message: "The items in this cart can't be changed.",
    });
  });

  it('keeps quantities within 0 to 99 and lines within the cart', async () => {
    const { store, shopper } = await setup({ editable: { value: true, override: null } });
    const token = await store.cart([{ offer_id: store.offers.beans.id }]);
    const line = (await shopper.get(`carts/${token}`)).body.offers[0].id;
    for (const quantity of [100, -1]) {
      const response = await shopper.put(`carts/${token}/quantity`, { id: line, quantity });
      expect(response.status).toBe(422);
      expect(response.body.fields).toEqual({
        quantity: 'Choose a quantity from 1 to 99, or 0 to remove the item.',
      });
    }
    expect((await shopper.put(`carts/${token}/quantity`, { id: line, quantity: 1.5 })).body.fields).toEqual({
      quantity: 'Quantity must be a whole number.',
    });
    const other = await store.cart([{ offer_id: store.offers.mug.id }]);
    const otherLine = (await shopper.get(`carts/${other}`)).body.offers[0].id;
    const response = await shopper.put(`carts/${token}/quantity`, { id: otherLine, quantity: 2 });
    expect(response.status).toBe(404);
    expect(response.body.code).toBe('order_offer_not_found');
  });
});

const lineIds = (cart: { offers: { id: number }[] }) => cart.offers.map((offer) => offer.id);

describe('removing a line with PUT carts/{cart_token}/quantity', () => {
  it('removes a line with quantity 0, and Undo brings it back with its quantity, place and gift details', async () => {
    const { store, shopper } = await setup({ editable: { value: true, override: null } });
    const token = await store.cart([
      { offer_id: store.offers.beans.id, quantity: 2 },
      { offer_id: store.offers.mug.id, quantity: 3, is_gift: true },
    ]);
    const before = (await shopper.get(`carts/${token}`)).body;
    const [beans, mug] = lineIds(before) as [number, number];
    expect(
      (
        await shopper.patch(`order_offers/${mug}/gift`, {
          order_offer_id: mug,
          cart_token: token,
          gift_name: 'Grace',
          gift_email: 'grace@example.com',
          gift_date: '2099-12-24',
          gift_message: 'Enjoy!',
        })
      ).status,
    ).toBe(200);

    const removed = await shopper.put(`carts/${token}/quantity`, { id: mug, quantity: 0 });
    expect(removed.status, JSON.stringify(removed.body)).toBe(200);
    expect(lineIds(removed.body)).toEqual([beans]);
    // The totals are the server's, for the line that stays: 2 x 18, no mug shipping.
    expect(removed.body).toMatchObject({ subtotal: 36, total_offer_shipping: 0, total: 36, total_items: 2 });
    expect(lineIds((await shopper.get(`carts/${token}`)).body)).toEqual([beans]);

    const undone = await shopper.put(`carts/${token}/quantity`, { id: mug, quantity: 3 });
    expect(undone.status).toBe(200);
    expect(lineIds(undone.body)).toEqual([beans, mug]);
    expect(undone.body.offers[1]).toMatchObject({
      order_offer_quantity: 3,
      is_gift: true,
      gift_name: 'Grace',
    });
    expect(undone.body).toMatchObject({ subtotal: before.subtotal, total: before.total, total_items: 5 });
  });

  it('never removes the last line', async () => {
    const { store, shopper } = await setup({ editable: { value: true, override: null } });
    const token = await store.cart([{ offer_id: store.offers.beans.id }, { offer_id: store.offers.mug.id }]);
    const [beans, mug] = lineIds((await shopper.get(`carts/${token}`)).body) as [number, number];
    expect((await shopper.put(`carts/${token}/quantity`, { id: beans, quantity: 0 })).status).toBe(200);
    const last = await shopper.put(`carts/${token}/quantity`, { id: mug, quantity: 0 });
    expect(last.status).toBe(409);
    expect(last.body).toEqual({
      status: 409,
      code: 'last_line',
      message: 'This is the only item in your cart, so it cannot be removed. Change its quantity instead.',
    });
    expect(lineIds((await shopper.get(`carts/${token}`)).body)).toEqual([mug]);
    // A removed line is not in the cart: removing it again is refused as any unknown line is.
    const again = await shopper.put(`carts/${token}/quantity`, { id: beans, quantity: 0 });
    expect(again.status).toBe(404);
    expect(again.body.code).toBe('order_offer_not_found');
  });

  it("brings back only this cart's removed lines, and only when the cart may change", async () => {
    const { store, shopper } = await setup({ editable: { value: true, override: null } });
    const token = await store.cart([{ offer_id: store.offers.beans.id }, { offer_id: store.offers.mug.id }]);
    const [beans] = lineIds((await shopper.get(`carts/${token}`)).body) as [number, number];
    await shopper.put(`carts/${token}/quantity`, { id: beans, quantity: 0 });
    const other = await store.cart([{ offer_id: store.offers.beans.id }]);
    const stolen = await shopper.put(`carts/${other}/quantity`, { id: beans, quantity: 1 });
    expect(stolen.status).toBe(404);
    expect(lineIds((await shopper.get(`carts/${other}`)).body)).toHaveLength(1);

    const fixed = await setup({ editable: { value: true, override: false } });
    const fixedToken = await fixed.store.cart([
      { offer_id: fixed.store.offers.beans.id },
      { offer_id: fixed.store.offers.mug.id },
    ]);
    const fixedLine = (await fixed.shopper.get(`carts/${fixedToken}`)).body.offers[0].id;
    const refused = await fixed.shopper.put(`carts/${fixedToken}/quantity`, { id: fixedLine, quantity: 0 });
    expect(refused.status).toBe(409);
    expect(refused.body.code).toBe('cart_not_editable');
  });
});

describe('a cart whose payment was declined', () => {
  // The page lost its quantity controls after a decline: the cart answered editable: false once any order existed.
  it('stays editable, and the retry charges the lines as they are then', async () => {
    const { store, shopper } = await setup({ editable: { value: true, override: null } });
    const token = await store.cart([{ offer_id: store.offers.beans.id }, { offer_id: store.offers.mug.id }]);
    const [beans, mug] = lineIds((await shopper.get(`carts/${token}`)).body) as [number, number];
    const declined = await shopper.post('orders', orderBody(token, { payment: card(CARDS.declined) }));
    expect(declined.status).toBe(402);

    const cart = (await shopper.get(`carts/${token}`)).body;
    expect(cart.order.status).toBe('declined');
    expect(cart.editable).toBe(true);
    expect((await shopper.put(`carts/${token}/quantity`, { id: beans, quantity: 3 })).status).toBe(200);
    const changed = await shopper.put(`carts/${token}/quantity`, { id: mug, quantity: 0 });
    expect(changed.status).toBe(200);
    expect(changed.body).toMatchObject({ editable: true, subtotal: 54, total_items: 3 });

    const paid = await shopper.put(`orders/${cart.order.order_id}`, orderBody(token));
    expect(paid.status, JSON.stringify(paid.body)).toBe(200);
    expect(paid.body).toMatchObject({ subtotal: 54, total_items: 3, order: { status: 'complete' } });
    expect(paid.body.offers.map((offer: { id: number }) => offer.id)).toEqual([beans]);
    const detail = (await store.api.get(`/orders/${cart.order.order_id}`)).body;
    expect(detail.lines.map((line: { quantity: number }) => line.quantity)).toEqual([3]);
    // Paid: the lines are fixed again.
    expect((await shopper.get(`carts/${token}`)).body.editable).toBe(false);
    expect((await shopper.put(`carts/${token}/quantity`, { id: beans, quantity: 1 })).body.code).toBe(
      'cart_ordered',
    );
  });
});

describe('PATCH order_offers/{id}/gift', () => {
  const gift = {
    gift_name: 'Grace',
    gift_email: 'grace@example.com',
    gift_date: '2026-12-24',
    gift_message: 'Enjoy!',
    gift_phone: '+1 555 010 0199',
    order_offer_notes: 'Wrap it',
  };

  it('stores the recipient details of a gift line', async () => {
    const { store, shopper } = await setup();
    const token = await store.cart([{ offer_id: store.offers.mug.id, is_gift: true }]);
    const line = (await shopper.get(`carts/${token}`)).body.offers[0].id;
    const response = await shopper.patch(`order_offers/${line}/gift`, {
      ...gift,
      order_offer_id: line,
      cart_token: token,
    });
    expect(response.status).toBe(200);
    expect(response.body.offer).toMatchObject({ id: line, is_gift: true, ...gift });
    expect((await shopper.get(`carts/${token}`)).body.offers[0]).toMatchObject(gift);
    // Saving again replaces the details.
    await shopper.patch(`order_offers/${line}/gift`, {
      ...gift,
      gift_name: 'Grace H.',
      order_offer_id: line,
      cart_token: token,
    });
    expect((await shopper.get(`carts/${token}`)).body.offers[0].gift_name).toBe('Grace H.');
  });

  it('names every invalid recipient field, with the message limit', async () => {
    const { store, shopper } = await setup();
    const token = await store.cart([{ offer_id: store.offers.mug.id, is_gift: true }]);
    const line = (await shopper.get(`carts/${token}`)).body.offers[0].id;
    const response = await shopper.patch(`order_offers/${line}/gift`, {
      order_offer_id: line,
      cart_token: token,
      gift_name: ' ',
      gift_email: 'grace@',
      gift_date: '2026-11-01',
      gift_message: 'x'.repeat(501),
      gift_phone: 'call me',
    });
    expect(response.status).toBe(422);
    expect(response.body.fields).toEqual({ gift_message: 'Keep the gift message to 500 characters.' });
    const second = await shopper.patch(`order_offers/${line}/gift`, {
      order_offer_id: line,
      cart_token: token,
      gift_name: ' ',
      gift_email: 'grace@',
      gift_date: '2026-11-01',
      gift_message: 'hi',
      gift_phone: 'call me',
    });
    expect(second.body.fields).toEqual({
      gift_name: 'Enter the recipient’s name.',
      gift_email: 'Enter an email address like name@example.com.',
      gift_date: 'Choose today or a later date.',
      gift_phone: 'Enter a phone number like +1 555 010 0199.',
    });
    const badDate = await shopper.patch(`order_offers/${line}/gift`, {
      ...gift,
      gift_date: '2026-02-30',
      order_offer_id: line,
      cart_token: token,
    });
    expect(badDate.body.fields).toEqual({ gift_date: 'Enter a date like 2026-12-24.' });
    const today = await shopper.patch(`order_offers/${line}/gift`, {
      ...gift,
      gift_date: '2026-11-21',
      order_offer_id: line,
      cart_token: token,
    });
    expect(today.status).toBe(200);
  });

  it('refuses lines that are not gifts, lines of other carts and mismatched ids', async () => {
    const { store, shopper } = await setup();
    const token = await store.cart([
      { offer_id: store.offers.beans.id },
      { offer_id: store.offers.mug.id, is_gift: true },
    ]);
    const [plain, giftLine] = (await shopper.get(`carts/${token}`)).body.offers.map(
      (o: { id: number }) => o.id,
    );
    const notGift = await shopper.patch(`order_offers/${plain}/gift`, {
      ...gift,
      order_offer_id: plain,
      cart_token: token,
    });
    expect(notGift.status).toBe(422);
    expect(notGift.body.code).toBe('not_a_gift');

    const other = await store.cart([{ offer_id: store.offers.mug.id, is_gift: true }]);
    const otherLine = (await shopper.get(`carts/${other}`)).body.offers[0].id;
    const wrongCart = await shopper.patch(`order_offers/${otherLine}/gift`, {
      ...gift,
      order_offer_id: otherLine,
      cart_token: token,
    });
    expect(wrongCart.status).toBe(404);
    expect(wrongCart.body.code).toBe('order_offer_not_found');

    const mismatch = await shopper.patch(`order_offers/${giftLine}/gift`, {
      ...gift,
      order_offer_id: plain,
      cart_token: token,
    });
    expect(mismatch.status).toBe(422);

    const unknownCart = await shopper.patch(`order_offers/${giftLine}/gift`, {
      ...gift,
      order_offer_id: giftLine,
      cart_token: 'AAAAAAAAAAAAAAAAAAAAAAAA',
    });
    expect(unknownCart.status).toBe(404);
  });
});

describe('a cart whose order is paid', () => {
  it('refuses a code, a preview, a gift change and a quantity change, and keeps the paid totals', async () => {
    const { store, shopper } = await setup({ editable: { value: true, override: null } });
    const token = await store.cart([
      { offer_id: store.offers.beans.id },
      { offer_id: store.offers.mug.id, is_gift: true },
    ]);
    const lines = (await shopper.get(`carts/${token}`)).body.offers as { id: number }[];
    const gift = (line: number, gift_name: string) =>
      shopper.patch(`order_offers/${line}/gift`, {
        order_offer_id: line,
        cart_token: token,
        gift_name,
        gift_email: 'grace@example.com',
        gift_date: '2026-12-24',
        gift_message: 'Enjoy!',
      });
    const giftLine = lines[1]?.id ?? 0;
    expect((await gift(giftLine, 'Grace')).status).toBe(200);
    const paid = await shopper.post('orders', orderBody(token));
    expect(paid.status, JSON.stringify(paid.body)).toBe(200);
    expect(paid.body.order.status).toBe('complete');

    // The page open in another tab still offers the forms: every change is refused.
    const closed = {
      status: 409,
      code: 'cart_ordered',
      message: 'This order has already been placed. Nothing more can change in it.',
    };
    expect((await shopper.put(`carts/${token}/discount_code`, { discount_code: 'WELCOME10' })).body).toEqual(
      closed,
    );
    expect((await shopper.get(`carts/${token}/preview`, { ship_country: 'GB' })).body).toEqual(closed);
    expect((await gift(giftLine, 'Someone else')).body).toEqual(closed);
    expect((await shopper.put(`carts/${token}/quantity`, { id: lines[0]?.id, quantity: 5 })).body).toEqual({
      status: 409,
      code: 'cart_ordered',
      message: 'This order has already been placed: its items cannot change any more.',
    });

    const after = (await shopper.get(`carts/${token}`)).body;
    expect(after).toMatchObject({
      total: paid.body.total,
      total_discount: 0,
      discount_code: null,
      total_items: 2,
      order: { status: 'complete' },
    });
    expect(after.offers[1].gift_name).toBe('Grace');
  });
});

describe('POST client-errors', () => {
  it('records a scrubbed report', async () => {
    const { shopper } = await setup();
    const response = await shopper.post('client-errors', {
      message: 'TypeError while paying with 4111 1111 1111 1111',
      stack: 'at pay (card_number=4111111111111111)',
      url: 'https://shop.test/checkout/x',
    });
    expect(response.status).toBe(204);
    const logged = t.logs.filter((line) => line.includes('page error reported')).join('\n');
    expect(logged).toContain('TypeError while paying');
    expect(logged).not.toContain('4111111111111111');
    expect(logged).not.toContain('4111 1111 1111 1111');
  });
});
