import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { CartSchema } from '../../src/contract/cart.js';
import { CheckoutLinkPreviewSchema } from '../../src/contract/checkout-link-preview.js';
import { shopperSession } from '../helpers/shopper.js';
import { createStore, type Store } from '../helpers/store.js';
import { createTestApp, type TestApp } from '../helpers/test-app.js';

// GET /checkout/api/merchant/checkout-links/{id}/preview (docs/api.md, "Checkout link preview"): the checkout a link
// opens, priced by the checkout's own pricing, with no cart made.

let t: TestApp;
let store: Store;

beforeAll(async () => {
  t = await createTestApp();
  store = await createStore(t.app, t.db);
});

afterAll(async () => {
  await t?.close();
});

async function cartCount(): Promise<number> {
  const { rows } = await t.db.query<{ n: number }>(
    'SELECT count(*)::int AS n FROM carts WHERE organization_id = $1',
    [store.org.id],
  );
  return rows[0]?.n ?? 0;
}

async function linkWith(body: Record<string, unknown>): Promise<{ id: number; public_id: string }> {
  return store.create('/checkout-links', body) as Promise<{ id: number; public_id: string }>;
}

async function previewOf(id: number) {
  const answer = await store.api.get(`/checkout-links/${id}/preview`);
  expect(answer.status, JSON.stringify(answer.body)).toBe(200);
  return CheckoutLinkPreviewSchema.parse(answer.body);
}

/** The cart a shopper's visit of the link opens, as the checkout page reads it. */
async function visit(publicId: string) {
  const shopper = await shopperSession(t.app, store.org.publicId);
  const answer = await shopper.get(`carts/__c__${publicId}`);
  expect(answer.status, JSON.stringify(answer.body)).toBe(200);
  return CartSchema.parse(answer.body);
}

describe('a checkout link’s preview', () => {
  it('prices its lines and code to the cent as the checkout does, without making a cart', async () => {
    const link = await linkWith({
      name: 'Autumn bundle',
      offers: [
        { offer_id: store.offers.beans.id, quantity: 3 },
        { offer_id: store.offers.club.id, quantity: 1 },
        { offer_id: store.offers.mug.id, quantity: 1, is_gift: true },
      ],
      discount_code: 'welcome10',
    });
    const carts = await cartCount();
    const preview = await previewOf(link.id);
    expect(await cartCount()).toBe(carts);

    expect(preview).toMatchObject({
      checkout_link_id: link.id,
      checkout_url: `http://checkout.test/checkout/__c__${link.public_id}`,
      currency: 'USD',
      opens_checkout: true,
      closed_reason: null,
      left_out: [],
      discount_code: 'WELCOME10',
      discount_applied: true,
      discount_notice: null,
      // 3 × 18 + 29 + 14
      subtotal: 97,
      // 10 % of 97, spread over the lines by their subtotals
      total_discount: 9.7,
      // the mug's own shipping
      total_offer_shipping: 2,
      due_today: 89.3,
      later_charges: [
        { offer_id: store.offers.club.id, item_name: 'Coffee club', amount: 25, interval_days: 30 },
      ],
    });
    expect(preview.address_note).toMatch(/Shipping and tax depend on the shopper's address/);
    expect(preview.lines).toEqual([
      {
        offer_id: store.offers.beans.id,
        offer_name: 'Beans',
        item_name: 'Coffee beans',
        quantity: 3,
        is_gift: false,
        unit_price: 18,
        subtotal: 54,
        discount: 5.4,
        shipping: 0,
        total: 48.6,
        is_recurring: false,
        billing_interval_days: null,
        next_cycle_total: null,
      },
      {
        offer_id: store.offers.club.id,
        offer_name: 'Club',
        item_name: 'Coffee club',
        quantity: 1,
        is_gift: false,
        unit_price: 29,
        subtotal: 29,
        discount: 2.9,
        shipping: 0,
        total: 26.1,
        is_recurring: true,
        billing_interval_days: 30,
        next_cycle_total: 25,
      },
      {
        offer_id: store.offers.mug.id,
        offer_name: 'Mug',
        item_name: 'Stoneware mug',
        quantity: 1,
        is_gift: true,
        unit_price: 14,
        subtotal: 14,
        discount: 1.4,
        shipping: 2,
        total: 14.6,
        is_recurring: false,
        billing_interval_days: null,
        next_cycle_total: null,
      },
    ]);

    // The checkout the link opens shows the same figures before an address is given.
    const cart = await visit(link.public_id);
    expect(cart.total).toBe(preview.due_today);
    expect(cart.total_discount).toBe(preview.total_discount);
    expect(cart.subtotal).toBe(preview.subtotal);
    expect(cart.offers.map((line) => [line.offer_id, line.order_offer_quantity, line.total])).toEqual(
      preview.lines.map((line) => [line.offer_id, line.quantity, line.total]),
    );
  });

  it('rounds a percent off odd cents as the checkout does', async () => {
    const odd = await store.create('/offers', { offer_name: 'Odd', item_name: 'Odd tea', price: 19.99 });
    await store.create('/discount-codes', { code: `ODD${store.org.id}`, kind: 'percent', percent_off: 15 });
    const link = await linkWith({
      offers: [{ offer_id: odd.id, quantity: 3 }],
      discount_code: `ODD${store.org.id}`,
    });
    const preview = await previewOf(link.id);
    // 59.97 × 15 % = 8.9955, rounded half up to 9.00
    expect([preview.subtotal, preview.total_discount, preview.due_today]).toEqual([59.97, 9, 50.97]);
    expect((await visit(link.public_id)).total).toBe(50.97);
  });

  it('says an inactive code and an expired code take nothing off, as the checkout takes nothing off', async () => {
    for (const [code, said] of [
      [
        'RETIRED',
        'The code RETIRED is inactive. The checkout takes nothing off. Make it active to apply it.',
      ],
      ['SUMMER24', 'The code SUMMER24 expired on September 1, 2024. The checkout takes nothing off.'],
    ] as const) {
      const link = await linkWith({
        offers: [{ offer_id: store.offers.beans.id, quantity: 2 }],
        discount_code: code,
      });
      const preview = await previewOf(link.id);
      expect(preview).toMatchObject({
        discount_code: code,
        discount_applied: false,
        discount_notice: said,
        subtotal: 36,
        total_discount: 0,
        due_today: 36,
      });
      const cart = await visit(link.public_id);
      expect([cart.total_discount, cart.total]).toEqual([0, 36]);
    }
  });

  it('says when a visit opens no checkout: an inactive link, an expired one, one with no active offer', async () => {
    const inactive = await linkWith({ offers: [{ offer_id: store.offers.beans.id }], active: false });
    expect(await previewOf(inactive.id)).toMatchObject({ opens_checkout: false, due_today: 18 });
    expect((await previewOf(inactive.id)).closed_reason).toMatch(/inactive/);

    const expiring = await linkWith({
      offers: [{ offer_id: store.offers.beans.id }],
      expires_at: new Date(t.clock.now().getTime() + 60_000).toISOString(),
    });
    expect((await previewOf(expiring.id)).opens_checkout).toBe(true);
    t.clock.advance(60_000);
    expect((await previewOf(expiring.id)).closed_reason).toMatch(/expired/);

    const retired = await store.create('/offers', { offer_name: 'Retired', item_name: 'Old tea', price: 5 });
    const leftOut = await linkWith({
      offers: [
        { offer_id: retired.id, quantity: 2 },
        { offer_id: store.offers.guide.id, quantity: 1 },
      ],
    });
    expect((await store.api.patch(`/offers/${retired.id}`, { active: false })).status).toBe(200);
    const preview = await previewOf(leftOut.id);
    expect(preview).toMatchObject({
      opens_checkout: true,
      left_out: [{ offer_id: retired.id, offer_name: 'Retired' }],
      subtotal: 9,
      due_today: 9,
    });
    expect(preview.lines.map((line) => line.offer_id)).toEqual([store.offers.guide.id]);
  });

  it('lists the link’s bumps and its offers after the purchase, priced by the server', async () => {
    const grinder = await store.create('/offers', {
      offer_name: 'Grinder',
      offer_title: 'Burr grinder, 40 settings',
      item_name: 'Burr grinder',
      item_image: 'https://cdn.example.com/grinder.png',
      price: 40,
      shipping_price: 3,
    });
    const scale = await store.create('/offers', {
      offer_name: 'Scale',
      item_name: 'Coffee scale',
      price: 12.5,
    });
    expect(
      (await store.api.patch(`/offers/${store.offers.mug.id}`, { bump_text: 'Add a mug for your first cup' }))
        .status,
    ).toBe(200);
    const link = await linkWith({
      offers: [{ offer_id: store.offers.beans.id, quantity: 1 }],
      bump_offer_ids: [store.offers.mug.id, store.offers.club.id],
      upsells: [
        { offer_id: grinder.id, downsell_offer_id: scale.id },
        { offer_id: store.offers.club.id, downsell_offer_id: null },
      ],
    });
    const preview = await previewOf(link.id);
    expect(preview.bumps_from).toBe('link');
    expect(preview.bumps).toEqual([
      {
        offer_id: store.offers.mug.id,
        offer_name: 'Mug',
        item_name: 'Stoneware mug',
        item_image: null,
        text: 'Add a mug for your first cup',
        price: 14,
        is_recurring: false,
        billing_interval_days: null,
        next_price: null,
      },
      expect.objectContaining({
        offer_id: store.offers.club.id,
        price: 29,
        is_recurring: true,
        billing_interval_days: 30,
        next_price: 25,
      }),
    ]);
    // The bumps are unticked boxes: the order's figures are the link's line alone.
    expect(preview).toMatchObject({ subtotal: 18, due_today: 18 });
    expect(preview.upsells).toEqual([
      {
        step: 1,
        offer: {
          offer_id: grinder.id,
          offer_name: 'Grinder',
          item_name: 'Burr grinder',
          item_image: 'https://cdn.example.com/grinder.png',
          text: 'Burr grinder, 40 settings',
          active: true,
          subtotal: 40,
          shipping: 3,
          amount: 43,
          recurring: null,
        },
        downsell: expect.objectContaining({
          offer_id: scale.id,
          subtotal: 12.5,
          amount: 12.5,
          recurring: null,
        }),
      },
      {
        step: 2,
        offer: expect.objectContaining({
          offer_id: store.offers.club.id,
          amount: 29,
          recurring: { amount: 25, interval_days: 30 },
        }),
        downsell: null,
      },
    ]);
  });

  it('shows the store’s default bumps for a link that names none, and none without them', async () => {
    const other = await createStore(t.app, t.db);
    const link = (await other.create('/checkout-links', {
      offers: [{ offer_id: other.offers.beans.id }],
    })) as { id: number };
    const before = CheckoutLinkPreviewSchema.parse(
      (await other.api.get(`/checkout-links/${link.id}/preview`)).body,
    );
    expect(before).toMatchObject({ bumps: [], bumps_from: 'none', upsells: [] });
    const patched = await other.api.patch('/organization', { bump_offer_ids: [other.offers.guide.id] });
    expect(patched.status, JSON.stringify(patched.body)).toBe(200);
    const after = CheckoutLinkPreviewSchema.parse(
      (await other.api.get(`/checkout-links/${link.id}/preview`)).body,
    );
    expect(after.bumps_from).toBe('organization');
    expect(after.bumps.map((bump) => [bump.offer_id, bump.price])).toEqual([[other.offers.guide.id, 9]]);
  });

  it('documents the bumps and the offers after the purchase in the OpenAPI document', async () => {
    const doc = (await t.app.inject({ method: 'GET', url: '/checkout/api/docs' })).json();
    const preview = doc.paths['/checkout/api/merchant/checkout-links/{id}/preview'].get;
    const schema = preview.responses['200'].content['application/json'].schema;
    expect(schema.required).toEqual(expect.arrayContaining(['bumps', 'bumps_from', 'upsells']));
    expect(schema.properties.upsells.items.required).toEqual(['step', 'offer', 'downsell']);
    const orders =
      doc.paths['/checkout/api/merchant/orders'].get.responses['200'].content['application/json'];
    expect(orders.schema.properties.data.items.required).toContain('parent_order_id');
  });

  it("answers 404 for another store's link and for a link that does not exist", async () => {
    const other = await createStore(t.app, t.db);
    const theirs = (await other.create('/checkout-links', {
      offers: [{ offer_id: other.offers.beans.id }],
    })) as { id: number };
    const answer = await store.api.get(`/checkout-links/${theirs.id}/preview`);
    expect(answer.status).toBe(404);
    expect(answer.body).toMatchObject({ code: 'checkout_link_not_found' });
    expect((await other.api.get(`/checkout-links/${theirs.id}/preview`)).status).toBe(200);
    expect((await store.api.get('/checkout-links/999999999/preview')).status).toBe(404);
  });
});
