import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { CartSchema } from '../../src/contract/cart.js';
import { GIFT_ALREADY_CLAIMED_MESSAGE } from '../../src/domain/link-errors.js';
import { GIFT_RECIPIENT, LONDON_BILLING, orderBody } from '../helpers/order-body.js';
import { shopperSession, type ShopperSession } from '../helpers/shopper.js';
import { storeWithShopper, type Store } from '../helpers/store.js';
import { createTestApp, type TestApp } from '../helpers/test-app.js';

let t: TestApp;

beforeAll(async () => {
  t = await createTestApp();
});

afterAll(async () => {
  await t.close();
});

const setup = () => storeWithShopper(t.app, t.db);

/** A giver buys the lines (gifts among them) and fills in each recipient; answers the completed order's detail. */
async function giveGifts(
  store: Store,
  shopper: ShopperSession,
  lines: { offer_id: number; is_gift?: boolean }[],
  extra = {},
) {
  const token = await store.cart(lines);
  const cart = CartSchema.parse((await shopper.get(`carts/${token}`)).body);
  for (const offer of cart.offers.filter((o) => o.is_gift)) {
    const saved = await shopper.patch(`order_offers/${offer.id}/gift`, {
      ...GIFT_RECIPIENT,
      order_offer_id: offer.id,
      cart_token: token,
    });
    expect(saved.status).toBe(200);
  }
  const placed = await shopper.post('orders', orderBody(token, { ...LONDON_BILLING, ...extra }));
  expect(placed.status, JSON.stringify(placed.body)).toBe(200);
  return (await store.api.get(`/orders/${placed.body.order.order_id}`)).body;
}

/** The page's JSON config block (or its error) in served HTML. */
function configBlock(html: string): unknown {
  const match = /<script type="application\/json" id="checkout-config">(.*?)<\/script>/s.exec(html);
  return match?.[1] === undefined ? undefined : JSON.parse(match[1]);
}

function claimToken(claimUrl: string): string {
  return new URL(claimUrl).pathname.replace('/checkout/', '');
}

describe('giving a gift', () => {
  it('issues a long random single-use claim code per gift when the order completes', async () => {
    const { store, shopper } = await setup();
    const detail = await giveGifts(store, shopper, [
      { offer_id: store.offers.beans.id },
      { offer_id: store.offers.mug.id, is_gift: true },
      { offer_id: store.offers.mug.id, is_gift: true },
    ]);
    expect(detail.gifts).toHaveLength(2);
    expect(detail.gifts[0]).toMatchObject({ ...GIFT_RECIPIENT, claimed_at: null });
    const tokens = detail.gifts.map((gift: { claim_url: string }) => claimToken(gift.claim_url));
    // 32 characters of 62 (about 190 bits): nothing in it derives from the order.
    for (const token of tokens) expect(token).toMatch(/^__g__[A-Za-z0-9]{32}$/);
    expect(new Set(tokens).size).toBe(2);
    // The giver's order ships only what is not a gift; the gift's own shipping was paid with it.
    expect(detail.lines.find((l: { is_gift: boolean }) => l.is_gift)).toMatchObject({ shipping: 2 });
  });

  it('opens no claim before the gift is paid for', async () => {
    const { store, shopper } = await setup();
    const token = await store.cart([{ offer_id: store.offers.mug.id, is_gift: true }]);
    const line = (await shopper.get(`carts/${token}`)).body.offers[0].id;
    await shopper.patch(`order_offers/${line}/gift`, {
      ...GIFT_RECIPIENT,
      order_offer_id: line,
      cart_token: token,
    });
    const { rows } = await t.db.query<{ claim_code: string | null }>(
      'SELECT claim_code FROM gift_details WHERE cart_offer_id = $1',
      [line],
    );
    expect(rows[0]?.claim_code).toBeNull();
  });

  it('does not start a subscription for the giver of a subscription, nor ask them for its terms', async () => {
    const { store, shopper } = await setup();
    const detail = await giveGifts(store, shopper, [{ offer_id: store.offers.club.id, is_gift: true }]);
    expect(detail.subscription_ids).toEqual([]);
    expect(detail.consent.subscription_terms_accepted).toBe(false);
  });
});

describe("the recipient's claim", () => {
  it('opens a claim cart at 0 with shipping required and no payment, and completes into a claim order', async () => {
    const { store, shopper } = await setup();
    const detail = await giveGifts(store, shopper, [{ offer_id: store.offers.mug.id, is_gift: true }]);
    const token = claimToken(detail.gifts[0].claim_url);

    const recipientSession = await shopperSession(t.app, store.org.publicId);
    const opened = CartSchema.parse((await recipientSession.get(`carts/${token}`)).body);
    expect(opened.cart_token).toMatch(/^[A-Za-z0-9]{24}$/);
    expect(opened).toMatchObject({
      total: 0,
      subtotal: 0,
      total_offer_shipping: 0,
      editable: false,
      order: {
        is_gift_claim: true,
        shipping_information_required: true,
        is_recurring: false,
        // The claim page says who the gift is from: the name the giver paid with, and their message.
        gift_from: { name: 'Ada Lovelace', message: GIFT_RECIPIENT.gift_message },
      },
    });
    expect(opened.offers[0]).toMatchObject({
      offer_id: store.offers.mug.id,
      order_offer_price: 0,
      item_price: 14,
      is_gift: false,
    });
    // Reopening the link before claiming answers the same claim cart.
    expect((await recipientSession.get(`carts/${token}`)).body.cart_token).toBe(opened.cart_token);

    const preview = (
      await recipientSession.get(`carts/${opened.cart_token}/preview`, {
        ship_country: 'US',
        ship_state: 'TX',
      })
    ).body;
    expect(preview.total).toBe(0);

    const claimed = await recipientSession.post(
      'orders',
      orderBody(opened.cart_token, {
        email: 'grace@example.com',
        ship_fname: 'Grace',
        ship_lname: 'Hopper',
        payment: { method: 'none' },
      }),
    );
    expect(claimed.status).toBe(200);
    expect(claimed.body).toMatchObject({ total: 0, order: { status: 'complete', is_gift_claim: true } });

    const giverOrder = (await store.api.get(`/orders/${detail.order_id}`)).body;
    expect(giverOrder.gifts[0].claimed_at).toEqual(expect.any(String));
    const used = await recipientSession.get(`carts/${token}`);
    expect(used.status).toBe(404);
    expect(used.body).toEqual({
      status: 404,
      code: 'gift_already_claimed',
      message: GIFT_ALREADY_CLAIMED_MESSAGE,
    });
    const page = await t.app.inject({ method: 'GET', url: `/checkout/${token}` });
    expect(page.statusCode).toBe(404);
  });

  it("serves a claimed gift's link a page that says the gift was claimed; an unknown code is just not valid", async () => {
    const { store, shopper } = await setup();
    const detail = await giveGifts(store, shopper, [{ offer_id: store.offers.mug.id, is_gift: true }]);
    const token = claimToken(detail.gifts[0].claim_url);
    const recipientSession = await shopperSession(t.app, store.org.publicId);
    const opened = (await recipientSession.get(`carts/${token}`)).body;
    const claimed = await recipientSession.post(
      'orders',
      orderBody(opened.cart_token, { email: 'grace@example.com', payment: { method: 'none' } }),
    );
    expect(claimed.status).toBe(200);

    const page = await t.app.inject({ method: 'GET', url: `/checkout/${token}` });
    expect(page.statusCode).toBe(404);
    expect(configBlock(page.body)).toEqual({
      error: { code: 'gift_already_claimed', message: GIFT_ALREADY_CLAIMED_MESSAGE },
    });
    // A guessed code of the same shape learns nothing: the page reads as any unknown link.
    const guessed = await t.app.inject({ method: 'GET', url: `/checkout/__g__${'A'.repeat(32)}` });
    expect(guessed.statusCode).toBe(404);
    expect(configBlock(guessed.body)).toMatchObject({ error: { code: 'cart_not_found' } });
  });

  it('asks for a card and the terms to claim a subscription, and starts it for the recipient', async () => {
    const { store, shopper } = await setup();
    const detail = await giveGifts(store, shopper, [{ offer_id: store.offers.club.id, is_gift: true }]);
    const token = claimToken(detail.gifts[0].claim_url);
    const recipientSession = await shopperSession(t.app, store.org.publicId);
    const opened = CartSchema.parse((await recipientSession.get(`carts/${token}`)).body);
    expect(opened).toMatchObject({ total: 0, order: { is_recurring: true } });

    const noPayment = await recipientSession.post(
      'orders',
      orderBody(opened.cart_token, { payment: { method: 'none' } }),
    );
    expect(noPayment.body.fields).toEqual({
      subscription_terms_accepted: 'Agree to the subscription terms to start your subscription.',
      payment: 'Choose how you want to pay.',
    });
    const claimed = await recipientSession.post(
      'orders',
      orderBody(opened.cart_token, { email: 'grace@example.com', subscription_terms_accepted: true }),
    );
    expect(claimed.status).toBe(200);
    expect(claimed.body.order.subscriptions).toHaveLength(1);
    const subscriptions = (await store.api.get('/subscriptions')).body.data;
    expect(subscriptions).toHaveLength(1);
    expect(subscriptions[0]).toMatchObject({
      customer_email: 'grace@example.com',
      status: 'active',
      cycle: 1,
    });
  });

  it('keeps a claim cart fixed: no codes, no quantity changes', async () => {
    const { store, shopper } = await setup();
    await store.api.patch('/organization', {
      client_options: { cart: { editable: { value: true, override: null } } },
    });
    const detail = await giveGifts(store, shopper, [{ offer_id: store.offers.mug.id, is_gift: true }]);
    const recipientSession = await shopperSession(t.app, store.org.publicId);
    const opened = (await recipientSession.get(`carts/${claimToken(detail.gifts[0].claim_url)}`)).body;
    const code = await recipientSession.put(`carts/${opened.cart_token}/discount_code`, {
      discount_code: 'WELCOME10',
    });
    expect(code.status).toBe(409);
    expect(code.body.code).toBe('gift_claim_fixed');
    const quantity = await recipientSession.put(`carts/${opened.cart_token}/quantity`, {
      id: opened.offers[0].id,
      quantity: 2,
    });
    expect(quantity.status).toBe(409);
  });
});
