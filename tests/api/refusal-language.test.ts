// Refusals on the shopper's API are said in the page's language, which the page sends as Accept-Language; the
// merchant's API stays English (docs/languages.md).
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { shopperSession } from '../helpers/shopper.js';
import { createStore } from '../helpers/store.js';
import { createTestApp, injectJson, type TestApp } from '../helpers/test-app.js';

let t: TestApp;

beforeAll(async () => {
  t = await createTestApp();
});

afterAll(async () => {
  await t.close();
});

async function setup(language?: string) {
  const store = await createStore(t.app, t.db, { editable: { value: true, override: null } });
  const shopper = await shopperSession(
    t.app,
    store.org.publicId,
    language ? { headers: { 'accept-language': language } } : {},
  );
  return { store, shopper };
}

const badGift = (line: number, token: string) => ({
  order_offer_id: line,
  cart_token: token,
  gift_name: ' ',
  gift_email: 'grace@',
  gift_date: '2026-11-01',
  gift_message: 'hi',
  gift_phone: 'call me',
});

describe('refusals on the shopper’s API', () => {
  it('says field errors of a 422 in Spanish when the page asks for Spanish', async () => {
    const { store, shopper } = await setup('es-MX,es;q=0.9,en;q=0.5');
    const token = await store.cart([{ offer_id: store.offers.mug.id, is_gift: true }]);
    const line = (await shopper.get(`carts/${token}`)).body.offers[0].id;
    const gift = await shopper.patch(`order_offers/${line}/gift`, badGift(line, token));
    expect(gift.status).toBe(422);
    expect(gift.body).toEqual({
      status: 422,
      code: 'validation_failed',
      message: 'Revisa los 4 campos marcados.',
      fields: {
        gift_name: 'Introduce el nombre del destinatario.',
        gift_email: 'Introduce un correo electrónico como nombre@ejemplo.com.',
        gift_date: 'Elige hoy o una fecha posterior.',
        gift_phone: 'Introduce un número de teléfono como +34 612 345 678.',
      },
    });
    const quantity = await shopper.put(`carts/${token}/quantity`, { id: line, quantity: 100 });
    expect(quantity.status).toBe(422);
    expect(quantity.body).toMatchObject({
      code: 'validation_failed',
      message: 'Elige una cantidad de 1 a 99, o 0 para quitar el artículo.',
      fields: { quantity: 'Elige una cantidad de 1 a 99, o 0 para quitar el artículo.' },
    });
  });

  it('says a 409 refusal in Spanish, its code unchanged', async () => {
    const { store, shopper } = await setup('es');
    const token = await store.cart([{ offer_id: store.offers.beans.id }]);
    const line = (await shopper.get(`carts/${token}`)).body.offers[0].id;
    const last = await shopper.put(`carts/${token}/quantity`, { id: line, quantity: 0 });
    expect(last.status).toBe(409);
    expect(last.body).toEqual({
      status: 409,
      code: 'last_line',
      message: 'Es el único artículo de tu carrito, así que no se puede quitar. Cambia su cantidad.',
    });
  });

  it('answers in English without Accept-Language, and in English for a language the checkout does not speak', async () => {
    for (const language of [undefined, 'sv-SE']) {
      const { store, shopper } = await setup(language);
      const token = await store.cart([{ offer_id: store.offers.mug.id, is_gift: true }]);
      const line = (await shopper.get(`carts/${token}`)).body.offers[0].id;
      const gift = await shopper.patch(`order_offers/${line}/gift`, badGift(line, token));
      expect(gift.body).toEqual({
        status: 422,
        code: 'validation_failed',
        message: 'Check the 4 highlighted fields.',
        fields: {
          gift_name: 'Enter the recipient’s name.',
          gift_email: 'Enter an email address like name@example.com.',
          gift_date: 'Choose today or a later date.',
          gift_phone: 'Enter a phone number like +1 555 010 0199.',
        },
      });
      const last = await shopper.put(`carts/${token}/quantity`, { id: line, quantity: 0 });
      expect(last.body).toEqual({
        status: 409,
        code: 'last_line',
        message: 'This is the only item in your cart, so it cannot be removed. Change its quantity instead.',
      });
    }
  });
});

describe('refusals on the merchant’s API', () => {
  it('stay English even when the request asks for Spanish', async () => {
    const store = await createStore(t.app, t.db);
    const response = await injectJson(t.app, {
      method: 'POST',
      url: '/checkout/api/merchant/carts',
      headers: { authorization: `Bearer ${store.org.apiKey}`, 'accept-language': 'es' },
      payload: { offers: [{ offer_id: 424242 }] },
    });
    expect(response.status).toBe(422);
    expect(response.body).toEqual({
      status: 422,
      code: 'validation_failed',
      message: 'Check the highlighted field.',
      fields: { 'offers.0.offer_id': 'No offer with id 424242 exists.' },
    });
  });
});
