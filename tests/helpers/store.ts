import type { FastifyInstance } from 'fastify';
import type { Database } from '../../src/server/platform/db/database.js';
import { shopperSession, type ShopperSession } from './shopper.js';
import { createTestOrganization, merchantClient } from './test-app.js';

/**
 * A small store made through the merchant API, as a merchant would: beans (taxable), a giftable mug with per-unit
 * shipping, a digital guide (no shipping, not taxable), a giftable subscription; codes, shipping and tax.
 */
export async function createStore(
  app: FastifyInstance,
  db: Database,
  options: { editable?: { value: boolean; override: boolean | null }; testCards?: string[] } = {},
) {
  const org = await createTestOrganization(db);
  const api = merchantClient(app, org.apiKey);
  const created = async (path: string, body: unknown) => {
    const response = await api.post(path, body);
    if (response.status !== 201)
      throw new Error(`${path}: ${response.status} ${JSON.stringify(response.body)}`);
    return response.body;
  };
  const beans = await created('/offers', {
    offer_name: 'Beans',
    offer_title: 'Ethiopia',
    item_id: 'BEANS',
    item_name: 'Coffee beans',
    item_image: 'https://cdn.example.com/beans.png',
    item_category: 'Coffee',
    item_options: [
      { name: 'Size', value: '340 g' },
      { name: 'Grind', value: 'Whole bean' },
    ],
    price: 18,
  });
  const mug = await created('/offers', {
    offer_name: 'Mug',
    item_name: 'Stoneware mug',
    price: 14,
    is_giftable: true,
    shipping_price: 2,
  });
  const guide = await created('/offers', {
    offer_name: 'Guide',
    item_name: 'Brewing guide (PDF)',
    price: 9,
    is_taxable: false,
    requires_shipping: false,
  });
  const club = await created('/offers', {
    offer_name: 'Club',
    item_name: 'Coffee club',
    price: 29,
    is_recurring: true,
    billing_interval_days: 30,
    next_price: 25,
    is_giftable: true,
  });
  const standard = await created('/shipping-profiles', {
    name: 'Standard',
    countries: ['US'],
    price: 5,
    free_over: 50,
  });
  const express = await created('/shipping-profiles', { name: 'Express', countries: ['US'], price: 15 });
  const international = await created('/shipping-profiles', {
    name: 'International',
    countries: ['CA', 'GB'],
    price: 20,
  });
  await created('/tax-rates', { country: 'US', state: 'TX', rate: 8.25 });
  await created('/tax-rates', { country: 'GB', rate: 20 });
  await created('/discount-codes', { code: 'WELCOME10', kind: 'percent', percent_off: 10 });
  await created('/discount-codes', { code: 'SAVE5', kind: 'fixed', amount_off: 5, min_subtotal: 30 });
  await created('/discount-codes', {
    code: 'MUGLOVE',
    kind: 'percent',
    percent_off: 25,
    offer_ids: [mug.id],
  });
  await created('/discount-codes', {
    code: 'SUMMER24',
    kind: 'percent',
    percent_off: 15,
    starts_at: '2024-06-01T00:00:00Z',
    ends_at: '2024-09-01T00:00:00Z',
  });
  await created('/discount-codes', {
    code: 'NEXTYEAR',
    kind: 'percent',
    percent_off: 15,
    starts_at: '2030-01-01T00:00:00Z',
  });
  await created('/discount-codes', { code: 'RETIRED', kind: 'percent', percent_off: 50, active: false });
  await created('/discount-codes', { code: 'FREE', kind: 'percent', percent_off: 100 });
  if (options.editable || options.testCards) {
    await api.patch('/organization', {
      client_options: {
        ...(options.editable ? { cart: { editable: options.editable } } : {}),
        ...(options.testCards ? { testCards: options.testCards } : {}),
      },
    });
  }

  const cart = async (
    lines: { offer_id: number; quantity?: number; is_gift?: boolean }[],
    extra: Record<string, unknown> = {},
  ) => (await created('/carts', { offers: lines, ...extra })).cart_token as string;

  return {
    org,
    api,
    /** POST through the merchant API for a test's own setup: answers the created resource, throws unless 201. */
    create: created,
    offers: { beans, mug, guide, club },
    profiles: { standard, express, international },
    cart,
  };
}

export type Store = Awaited<ReturnType<typeof createStore>>;

/** A new store and a shopper session (handshake done) against it. */
export async function storeWithShopper(
  app: FastifyInstance,
  db: Database,
  options: Parameters<typeof createStore>[2] = {},
): Promise<{ store: Store; shopper: ShopperSession }> {
  const store = await createStore(app, db, options);
  return { store, shopper: await shopperSession(app, store.org.publicId) };
}
