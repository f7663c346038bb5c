import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { CartSchema, type Cart } from '../../src/contract/cart.js';
import { OrderDetailSchema } from '../../src/contract/merchant.js';
import { findOrder, findOrderLines } from '../../src/server/modules/orders/orders-repository.js';
import { orderEventData } from '../../src/server/modules/orders/order-events.js';
import { CARDS, card, orderBody } from '../helpers/order-body.js';
import type { ShopperSession } from '../helpers/shopper.js';
import { storeWithShopper, type Store } from '../helpers/store.js';
import { createTestApp, type TestApp } from '../helpers/test-app.js';

let t: TestApp;

beforeAll(async () => {
  t = await createTestApp();
});

afterAll(async () => {
  await t.close();
});

let keyCounter = 0;
const key = () => `bump-key-${process.pid}-${++keyCounter}`;

/** A store with a link for the beans whose bumps are the guide and the mug. */
async function storeWithBumpLink(bumps?: (store: Store) => number[]) {
  const { store, shopper } = await storeWithShopper(t.app, t.db);
  const publicId = `bumps-${store.org.id}`;
  const link = await store.api.post('/checkout-links', {
    public_id: publicId,
    offers: [{ offer_id: store.offers.beans.id }],
    bump_offer_ids: bumps ? bumps(store) : [store.offers.guide.id, store.offers.mug.id],
  });
  expect(link.status).toBe(201);
  return { store, shopper, link: link.body, linkToken: `__c__${publicId}` };
}

async function openCart(shopper: ShopperSession, token: string): Promise<Cart> {
  const response = await shopper.get(`carts/${token}`);
  expect(response.status).toBe(200);
  return CartSchema.parse(response.body);
}

async function tick(shopper: ShopperSession, token: string, offerId: number, selected: boolean) {
  return shopper.put(`carts/${token}/bumps`, { offer_id: offerId, selected });
}

describe('checkout links and the organization name bump offers', () => {
  it('stores up to 3 on a link and reads them back in order', async () => {
    const { store, link } = await storeWithBumpLink();
    expect(link.bump_offer_ids).toEqual([store.offers.guide.id, store.offers.mug.id]);
    const read = await store.api.get(`/checkout-links/${link.id}`);
    expect(read.body.bump_offer_ids).toEqual([store.offers.guide.id, store.offers.mug.id]);
    const changed = await store.api.patch(`/checkout-links/${link.id}`, {
      bump_offer_ids: [store.offers.club.id],
    });
    expect(changed.status).toBe(200);
    expect(changed.body.bump_offer_ids).toEqual([store.offers.club.id]);
    const cleared = await store.api.patch(`/checkout-links/${link.id}`, { bump_offer_ids: [] });
    expect(cleared.body.bump_offer_ids).toEqual([]);
  });

  it('refuses with words: unknown offer, more than 3, a duplicate, an inactive one, a line of the link', async () => {
    const { store, link } = await storeWithShopper(t.app, t.db).then(async ({ store }) => ({
      store,
      link: (await store.api.post('/checkout-links', { offers: [{ offer_id: store.offers.beans.id }] })).body,
    }));
    const { beans, mug, guide, club } = store.offers;
    const retired = await store.create('/offers', {
      offer_name: 'Old',
      item_name: 'Old',
      price: 1,
      active: false,
    });
    const refused = async (bumpOfferIds: number[]) => {
      const response = await store.api.patch(`/checkout-links/${link.id}`, { bump_offer_ids: bumpOfferIds });
      expect(response.status).toBe(422);
      return response.body.fields;
    };
    expect(await refused([999_999])).toEqual({ 'bump_offer_ids.0': 'No offer with id 999999 exists.' });
    expect(await refused([mug.id, guide.id, club.id, retired.id])).toEqual({
      bump_offer_ids: 'Name at most 3 bump offers; this list has 4.',
    });
    expect(await refused([mug.id, mug.id])).toEqual({
      'bump_offer_ids.1': `Offer ${mug.id} is named twice; name each bump offer once.`,
    });
    expect(await refused([retired.id])).toEqual({
      'bump_offer_ids.0': `Offer ${retired.id} is not active; activate it or choose another.`,
    });
    expect(await refused([beans.id])).toEqual({
      'bump_offer_ids.0': `Offer ${beans.id} is already a line of this link, so it cannot also be a bump.`,
    });
    // Changing the lines checks them against the bumps the link keeps.
    await store.api.patch(`/checkout-links/${link.id}`, { bump_offer_ids: [mug.id] });
    const clash = await store.api.patch(`/checkout-links/${link.id}`, { offers: [{ offer_id: mug.id }] });
    expect(clash.status).toBe(422);
    expect(clash.body.fields['bump_offer_ids.0']).toMatch(/already a line of this link/);
    const created = await store.api.post('/checkout-links', {
      offers: [{ offer_id: beans.id }],
      bump_offer_ids: [beans.id],
    });
    expect(created.status).toBe(422);
  });

  it("uses the organization's default when the link names none, and the link's own when it does", async () => {
    const { store, shopper } = await storeWithShopper(t.app, t.db);
    const { beans, mug, guide, club } = store.offers;
    const refused = await store.api.patch('/organization', { bump_offer_ids: [mug.id, 424_242] });
    expect(refused.status).toBe(422);
    expect(refused.body.fields).toEqual({ 'bump_offer_ids.1': 'No offer with id 424242 exists.' });
    const saved = await store.api.patch('/organization', { bump_offer_ids: [mug.id, club.id] });
    expect(saved.status).toBe(200);
    expect(saved.body.bump_offer_ids).toEqual([mug.id, club.id]);
    expect((await store.api.get('/organization')).body.bump_offer_ids).toEqual([mug.id, club.id]);

    await store.api.post('/checkout-links', {
      public_id: `plain-${store.org.id}`,
      offers: [{ offer_id: beans.id }],
    });
    await store.api.post('/checkout-links', {
      public_id: `own-${store.org.id}`,
      offers: [{ offer_id: beans.id }],
      bump_offer_ids: [guide.id],
    });
    const plain = await openCart(shopper, `__c__plain-${store.org.id}`);
    expect(plain.bumps.map((bump) => bump.offer_id)).toEqual([mug.id, club.id]);
    const own = await openCart(shopper, `__c__own-${store.org.id}`);
    expect(own.bumps.map((bump) => bump.offer_id)).toEqual([guide.id]);
    // A merchant's cart has no link: the default applies, but not to an offer already a line of it.
    const merchantCart = await openCart(shopper, await store.cart([{ offer_id: mug.id }]));
    expect(merchantCart.bumps.map((bump) => bump.offer_id)).toEqual([club.id]);
  });
});

describe('PUT carts/{cart_token}/bumps', () => {
  it('lists the boxes with their one line and price, unticked', async () => {
    const { store, shopper, linkToken } = await storeWithBumpLink();
    await store.api.patch(`/offers/${store.offers.mug.id}`, { bump_text: 'Add a mug for your first cup' });
    const cart = await openCart(shopper, linkToken);
    expect(cart.bumps).toEqual([
      {
        offer_id: store.offers.guide.id,
        item_name: 'Brewing guide (PDF)',
        item_image: null,
        text: 'Guide',
        price: 9,
        is_recurring: false,
        billing_interval_days: null,
        next_price: null,
        selected: false,
      },
      expect.objectContaining({
        offer_id: store.offers.mug.id,
        text: 'Add a mug for your first cup',
        price: 14,
      }),
    ]);
    expect(cart.offers.map((offer) => offer.is_bump)).toEqual([false]);
  });

  it('adds the line once however often ticked, removes it once, and brings it back', async () => {
    const { store, shopper, linkToken } = await storeWithBumpLink();
    const token = (await openCart(shopper, linkToken)).cart_token;
    const guide = store.offers.guide.id;
    const first = await tick(shopper, token, guide, true);
    expect(first.status).toBe(200);
    const again = CartSchema.parse((await tick(shopper, token, guide, true)).body);
    expect(again.offers.map((offer) => [offer.offer_id, offer.is_bump, offer.order_offer_quantity])).toEqual([
      [store.offers.beans.id, false, 1],
      [guide, true, 1],
    ]);
    expect(again.subtotal).toBe(27);
    expect(again.bumps.find((bump) => bump.offer_id === guide)?.selected).toBe(true);
    const lineId = again.offers[1]?.id;

    const removed = CartSchema.parse((await tick(shopper, token, guide, false)).body);
    expect(removed.offers.map((offer) => offer.offer_id)).toEqual([store.offers.beans.id]);
    expect(removed.subtotal).toBe(18);
    const removedAgain = CartSchema.parse((await tick(shopper, token, guide, false)).body);
    expect(removedAgain.subtotal).toBe(18);
    expect(removedAgain.bumps.find((bump) => bump.offer_id === guide)?.selected).toBe(false);

    const back = CartSchema.parse((await tick(shopper, token, guide, true)).body);
    expect(back.offers.map((offer) => [offer.id, offer.is_bump])).toEqual([
      [back.offers[0]?.id, false],
      [lineId, true],
    ]);
    const { rows } = await t.db.query<{ n: number }>(
      'SELECT count(*)::int AS n FROM cart_offers WHERE organization_id = $1 AND offer_id = $2',
      [store.org.id, guide],
    );
    expect(rows[0]?.n).toBe(1);
  });

  it('adds one line when two ticks race (the cart row is locked, bump lines are unique per offer)', async () => {
    const { store, shopper, linkToken } = await storeWithBumpLink();
    const token = (await openCart(shopper, linkToken)).cart_token;
    const answers = await Promise.all([
      tick(shopper, token, store.offers.mug.id, true),
      tick(shopper, token, store.offers.mug.id, true),
      tick(shopper, token, store.offers.mug.id, true),
    ]);
    expect(answers.map((answer) => answer.status)).toEqual([200, 200, 200]);
    const cart = await openCart(shopper, token);
    expect(cart.offers.filter((offer) => offer.is_bump).map((offer) => offer.offer_id)).toEqual([
      store.offers.mug.id,
    ]);
    expect(cart.subtotal).toBe(32);
  });

  it('answers 422 for an offer that is not one of the cart bumps, and 404 for another cart', async () => {
    const { store, shopper, linkToken } = await storeWithBumpLink();
    const token = (await openCart(shopper, linkToken)).cart_token;
    const response = await tick(shopper, token, store.offers.club.id, true);
    expect(response.status).toBe(422);
    expect(response.body).toMatchObject({
      code: 'not_a_bump',
      fields: {
        offer_id: `Offer ${store.offers.club.id} is not one of the offers this checkout adds with a box.`,
      },
    });
    const beans = await tick(shopper, token, store.offers.beans.id, true);
    expect(beans.status).toBe(422);
    expect((await tick(shopper, 'no-such-cart', store.offers.guide.id, true)).status).toBe(404);
    const bad = await shopper.put(`carts/${token}/bumps`, { offer_id: store.offers.guide.id });
    expect(bad.status).toBe(422);
  });

  it('prices a bump line like any line: the totals equal a cart holding the same lines, code and tax', async () => {
    const { store, shopper, linkToken } = await storeWithBumpLink();
    const token = (await openCart(shopper, linkToken)).cart_token;
    await shopper.put(`carts/${token}/discount_code`, { discount_code: 'WELCOME10' });
    await shopper.get(`carts/${token}/preview`, { ship_country: 'US', ship_state: 'TX' });
    const bumped = CartSchema.parse((await tick(shopper, token, store.offers.mug.id, true)).body);

    const plainToken = await store.cart(
      [{ offer_id: store.offers.beans.id }, { offer_id: store.offers.mug.id }],
      { discount_code: 'WELCOME10' },
    );
    await shopper.get(`carts/${plainToken}/preview`, { ship_country: 'US', ship_state: 'TX' });
    const plain = await openCart(shopper, plainToken);
    const figures = (cart: Cart) => ({
      subtotal: cart.subtotal,
      total_discount: cart.total_discount,
      total_tax: cart.total_tax,
      total_offer_shipping: cart.total_offer_shipping,
      total_campaign_shipping: cart.total_campaign_shipping,
      total: cart.total,
      lines: cart.offers.map((offer) => [offer.discount, offer.tax, offer.total]),
    });
    expect(figures(bumped)).toEqual(figures(plain));
    // Beans 18 + mug 14 = 32; 10 % off = 3.20; mug shipping 2; standard shipping 5 (under 50);
    // TX tax 8.25 % of the discounted items 28.80 (and of the shipping when the rate taxes it).
    // Beans 18 and mug 14 less 10 %: 16.20 and 12.60; TX tax 8.25 % of each: 1.34 and 1.04 (shipping untaxed);
    // the mug's own shipping 2 and standard shipping 5 (under 50): 32 − 3.20 + 2 + 5 + 2.38 = 38.18.
    expect(bumped).toMatchObject({
      subtotal: 32,
      total_discount: 3.2,
      total_tax: 2.38,
      total_offer_shipping: 2,
      total_campaign_shipping: 5,
      total: 38.18,
    });
    expect(bumped.offers[1]).toMatchObject({
      is_bump: true,
      discount: 1.4,
      tax: 1.04,
      shipping: 2,
      total: 15.64,
    });
  });

  it('makes the order recurring when the bump is a subscription', async () => {
    const { store, shopper, linkToken } = await storeWithBumpLink((s) => [s.offers.club.id]);
    const token = (await openCart(shopper, linkToken)).cart_token;
    const cart = await openCart(shopper, token);
    expect(cart.order.is_recurring).toBe(false);
    expect(cart.bumps[0]).toMatchObject({
      is_recurring: true,
      billing_interval_days: 30,
      price: 29,
      next_price: 25,
    });
    const ticked = CartSchema.parse((await tick(shopper, token, store.offers.club.id, true)).body);
    expect(ticked.order.is_recurring).toBe(true);
    expect(ticked.offers[1]).toMatchObject({ is_bump: true, is_recurring: true, next_price: 25 });
  });

  it('records the bump line on the order, in the merchant API and the webhook, and refuses changes after', async () => {
    const { store, shopper, linkToken } = await storeWithBumpLink();
    const token = (await openCart(shopper, linkToken)).cart_token;
    await tick(shopper, token, store.offers.guide.id, true);
    const placed = await shopper.post('orders', orderBody(token), { 'idempotency-key': key() });
    expect(placed.status).toBe(200);
    const cart = CartSchema.parse(placed.body);
    expect(cart.order.status).toBe('complete');
    expect(cart.bumps).toEqual([]);
    expect(cart.offers.map((offer) => offer.is_bump)).toEqual([false, true]);

    const detail = OrderDetailSchema.parse((await store.api.get(`/orders/${cart.order.order_id}`)).body);
    expect(detail.lines.map((line) => [line.item_name, line.is_bump, line.total])).toEqual([
      ['Coffee beans', false, expect.any(Number)],
      ['Brewing guide (PDF)', true, 9],
    ]);
    // order.completed carries the order's lines as its job reads them (order-event-job.ts).
    const orderId = cart.order.order_id ?? 0;
    const order = await findOrder(t.db, store.org.id, orderId);
    const event = orderEventData(order!, await findOrderLines(t.db, store.org.id, orderId));
    expect(event.lines.map((line) => [line.item_name, line.is_bump])).toEqual([
      ['Coffee beans', false],
      ['Brewing guide (PDF)', true],
    ]);

    const late = await tick(shopper, token, store.offers.guide.id, false);
    expect(late.status).toBe(409);
    expect(late.body.code).toBe('cart_ordered');
  });

  it('refuses a change while a payment is in progress, like the quantity route', async () => {
    const { store, shopper, linkToken } = await storeWithBumpLink();
    const token = (await openCart(shopper, linkToken)).cart_token;
    const declined = await shopper.post('orders', orderBody(token, { payment: card(CARDS.declined) }), {
      'idempotency-key': key(),
    });
    const orderId = (await openCart(shopper, token)).order.order_id;
    expect(orderId, JSON.stringify(declined.body)).not.toBeNull();
    await t.db.query(`UPDATE orders SET payment_lease_until = $3 WHERE organization_id = $1 AND id = $2`, [
      store.org.id,
      orderId,
      new Date(t.clock.now().getTime() + 60_000),
    ]);
    const response = await tick(shopper, token, store.offers.guide.id, true);
    expect(response.status).toBe(409);
    expect(response.body.code).toBe('payment_in_progress');
  });
});
