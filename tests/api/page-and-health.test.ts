import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { PageConfigSchema } from '../../src/contract/page-config.js';
import { createTestApp, createTestOrganization, merchantClient, type TestApp } from '../helpers/test-app.js';

let t: TestApp;

beforeAll(async () => {
  t = await createTestApp();
});

afterAll(async () => {
  await t.close();
});

function configBlock(html: string): unknown {
  const match = /<script type="application\/json" id="checkout-config">(.*?)<\/script>/s.exec(html);
  return match?.[1] === undefined ? undefined : JSON.parse(match[1]);
}

describe('the checkout page', () => {
  it('is served at /checkout/{token} and /checkout?cart_token= with the organization config and no caching', async () => {
    const org = await createTestOrganization(t.db, { name: 'Tea </script><script>alert(1)</script> House' });
    const api = merchantClient(t.app, org.apiKey);
    const offer = (await api.post('/offers', { offer_name: 'Tea', item_name: 'Tea', price: 5 })).body;
    const { cart_token: token } = (await api.post('/carts', { offers: [{ offer_id: offer.id }] })).body;

    for (const url of [`/checkout/${token}`, `/checkout?cart_token=${token}`]) {
      const page = await t.app.inject({ method: 'GET', url });
      expect(page.statusCode).toBe(200);
      expect(page.headers['content-type']).toBe('text/html; charset=utf-8');
      expect(page.headers['cache-control']).toBe('no-store');
      expect(page.body).toContain('<title>Secure Checkout</title>');
      // The organization's name cannot close the JSON block early.
      expect(page.body.match(/<\/script>/g)).toHaveLength(1);
      const config = PageConfigSchema.parse(configBlock(page.body));
      expect(config).toMatchObject({
        organization: org.publicId,
        organization_name: 'Tea </script><script>alert(1)</script> House',
        currency: 'USD',
        // The page writes amounts with this, without an Intl formatter of its own.
        money_format: {
          locale: 'en-US',
          currency: 'USD',
          digits: 2,
          prefix: '$',
          negative_prefix: '-$',
          group: ',',
        },
        api_base: '/checkout/api',
        test_mode: false,
      });
    }
    const testMode = await t.app.inject({ method: 'GET', url: `/checkout/${token}?cypress=1` });
    expect(PageConfigSchema.parse(configBlock(testMode.body)).test_mode).toBe(true);
  });

  it("gives the formats of the countries of the cart's addresses, and none for a cart without one", async () => {
    const org = await createTestOrganization(t.db);
    const api = merchantClient(t.app, org.apiKey);
    const offer = (await api.post('/offers', { offer_name: 'Tea', item_name: 'Tea', price: 5 })).body;
    const formatsOf = async (customer?: Record<string, string>) => {
      const cart = await api.post('/carts', {
        offers: [{ offer_id: offer.id }],
        ...(customer ? { customer } : {}),
      });
      expect(cart.status, JSON.stringify(cart.body)).toBe(201);
      const page = await t.app.inject({ method: 'GET', url: `/checkout/${cart.body.cart_token}` });
      return PageConfigSchema.parse(configBlock(page.body)).address_formats;
    };
    expect(await formatsOf()).toEqual({});
    const ada = { email: 'ada@example.com', ship_fname: 'Ada', ship_lname: 'Lovelace' };
    const us = await formatsOf({
      ...ada,
      ship_address1: '1 Congress Ave',
      ship_city: 'Austin',
      ship_state: 'TX',
      ship_zipcode: '73301',
      ship_country: 'US',
    });
    expect(Object.keys(us ?? {})).toEqual(['US']);
    expect(us?.US).toMatchObject({ country: 'US', layout: '%N%n%O%n%A%n%C, %S %Z' });
    expect(us?.US?.subdivisions).toContainEqual({ code: 'TX', name: 'Texas', key: 'TX' });
    const japan = await formatsOf({
      ...ada,
      ship_address1: '1-1 Chiyoda',
      ship_city: 'Chiyoda-ku',
      ship_state: '13',
      ship_zipcode: '100-0001',
      ship_country: 'JP',
    });
    expect(Object.keys(japan ?? {})).toEqual(['JP']);
    expect(japan?.JP?.subdivisions).toContainEqual(
      expect.objectContaining({ code: '13', name: '東京都', latinName: 'TOKYO' }),
    );
  });

  it('answers 404 with a message the page shows for an unknown, malformed or missing token', async () => {
    for (const [url, code] of [
      ['/checkout/AAAAAAAAAAAAAAAAAAAAAAAA', 'cart_not_found'],
      ["/checkout/x'%20OR%201=1", 'cart_not_found'],
      ['/checkout/__c__no-such-link', 'cart_not_found'],
      ['/checkout/__g__AAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAA', 'cart_not_found'],
      ['/checkout', 'cart_token_missing'],
    ] as const) {
      const page = await t.app.inject({ method: 'GET', url });
      expect(page.statusCode, url).toBe(404);
      expect(configBlock(page.body)).toMatchObject({ error: { code } });
    }
  });

  it('resumes the cart this browser remembers at /checkout without a token', async () => {
    const org = await createTestOrganization(t.db);
    const api = merchantClient(t.app, org.apiKey);
    const offer = (await api.post('/offers', { offer_name: 'Tea', item_name: 'Tea', price: 5 })).body;
    const { cart_token: token } = (await api.post('/carts', { offers: [{ offer_id: offer.id }] })).body;
    const page = await t.app.inject({
      method: 'GET',
      url: '/checkout',
      headers: { cookie: `other=1; checkout_cart=${token}` },
    });
    expect(page.statusCode).toBe(200);
    expect(PageConfigSchema.parse(configBlock(page.body)).organization).toBe(org.publicId);
    const forged = await t.app.inject({
      method: 'GET',
      url: '/checkout',
      headers: { cookie: 'checkout_cart=<script>' },
    });
    expect(forged.statusCode).toBe(404);
  });

  it('does not serve an expired cart', async () => {
    const org = await createTestOrganization(t.db);
    const api = merchantClient(t.app, org.apiKey);
    const offer = (await api.post('/offers', { offer_name: 'Tea', item_name: 'Tea', price: 5 })).body;
    const { cart_token: token } = (await api.post('/carts', { offers: [{ offer_id: offer.id }] })).body;
    t.clock.advance(31 * 24 * 60 * 60 * 1000);
    try {
      expect((await t.app.inject({ method: 'GET', url: `/checkout/${token}` })).statusCode).toBe(404);
    } finally {
      t.clock.advance(-31 * 24 * 60 * 60 * 1000);
    }
  });
});

describe('health, readiness and the API reference', () => {
  it('reports liveness and database readiness', async () => {
    expect((await t.app.inject({ method: 'GET', url: '/healthz' })).json()).toEqual({ status: 'ok' });
    expect((await t.app.inject({ method: 'GET', url: '/readyz' })).json()).toEqual({
      status: 'ready',
      database: t.database.kind,
    });
  });

  it('serves an OpenAPI document generated from the contract schemas', async () => {
    const doc = (await t.app.inject({ method: 'GET', url: '/checkout/api/docs' })).json();
    expect(doc.openapi).toBe('3.1.0');
    expect(Object.keys(doc.paths)).toEqual(
      expect.arrayContaining([
        '/checkout/api/merchant/offers',
        '/checkout/api/merchant/offers/{id}',
        '/checkout/api/merchant/carts',
        '/checkout/api/merchant/orders/{id}',
        '/checkout/api/csrf',
        '/checkout/api/authorize',
      ]),
    );
    const createCart = doc.paths['/checkout/api/merchant/carts'].post;
    expect(createCart.security).toEqual([{ merchantKey: [] }]);
    expect(createCart.requestBody.content['application/json'].schema.required).toEqual(['offers']);
  });

  it('answers unknown routes with the one error shape', async () => {
    const response = await t.app.inject({ method: 'GET', url: '/checkout/api/nothing-here' });
    expect(response.statusCode).toBe(404);
    expect(response.json()).toEqual({
      status: 404,
      code: 'not_found',
      message: 'Nothing was found at this address.',
    });
  });
});
