// A malformed request and a replayed refusal are said in the language of the request that reads them: the shopper's
// API in its Accept-Language, the merchant's API in English (docs/languages.md, "Refusals and field errors").
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { CARDS, orderBody } from '../helpers/order-body.js';
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

let keyCounter = 0;
const key = () => `answer-language-${process.pid}-${++keyCounter}`;

describe('a request that fails its schema', () => {
  it('is answered with French field messages when the page asks in French', async () => {
    const store = await createStore(t.app, t.db);
    const shopper = await shopperSession(t.app, store.org.publicId, {
      headers: { 'accept-language': 'fr-CA,fr' },
    });
    const token = await store.cart([{ offer_id: store.offers.mug.id, is_gift: true }]);
    const line = (await shopper.get(`carts/${token}`)).body.offers[0].id;

    const code = await shopper.put(`carts/${token}/discount_code`, {
      discount_code: 'X'.repeat(65),
      colour: 'red',
    });
    expect(code.status).toBe(422);
    expect(code.body).toEqual({
      status: 422,
      code: 'validation_failed',
      message: 'Vérifiez les 2 champs signalés.',
      fields: { discount_code: 'Ce code est trop long.', colour: 'Ce champ n’est pas attendu ici.' },
    });

    const gift = await shopper.patch(`order_offers/${line}/gift`, {
      order_offer_id: line,
      cart_token: token,
      gift_name: 'A'.repeat(101),
      gift_email: 'grace@example.com',
      gift_date: '2026-12-01',
      gift_message: 'M'.repeat(501),
    });
    expect(gift.status).toBe(422);
    expect(gift.body.fields).toEqual({
      gift_name: 'Utilisez au plus 100 caractères pour le nom.',
      gift_message: 'Le message cadeau ne doit pas dépasser 500 caractères.',
    });

    const preview = await shopper.get(`carts/${token}/preview`, { ship_zipcode: '1'.repeat(21) });
    expect(preview.status).toBe(422);
    expect(preview.body).toMatchObject({
      message: 'Vérifiez le paramètre de requête signalé.',
      fields: { ship_zipcode: 'Utilisez au plus 20 caractères.' },
    });
  });

  it('is answered in English on the merchant’s API, whatever the request asks', async () => {
    const store = await createStore(t.app, t.db);
    const response = await injectJson(t.app, {
      method: 'POST',
      url: '/checkout/api/merchant/carts',
      headers: { authorization: `Bearer ${store.org.apiKey}`, 'accept-language': 'fr' },
      payload: { offers: [{ offer_id: 'one' }], colour: 'red' },
    });
    expect(response.status).toBe(422);
    expect(response.body).toEqual({
      status: 422,
      code: 'validation_failed',
      message: 'Check the 2 highlighted fields.',
      fields: { 'offers.0.offer_id': 'Must be a number.', colour: 'This field is not expected here.' },
    });
  });
});

describe('a refused order replayed with its Idempotency-Key', () => {
  it('is said in the language of the replaying request, its code unchanged', async () => {
    const store = await createStore(t.app, t.db);
    const english = await shopperSession(t.app, store.org.publicId);
    const token = await store.cart([{ offer_id: store.offers.beans.id }]);
    expect((await english.put(`carts/${token}/discount_code`, { discount_code: 'welcome10' })).status).toBe(
      200,
    );
    // The merchant retires the code after the shopper applied it: placing the order is refused until it is removed.
    await t.db.query(
      "UPDATE discount_codes SET active = false WHERE organization_id = $1 AND code = 'WELCOME10'",
      [store.org.id],
    );
    const headers = { 'idempotency-key': key() };
    const body = orderBody(token);

    const first = await english.post('orders', body, headers);
    expect(first.status).toBe(422);
    expect(first.body).toEqual({
      status: 422,
      code: 'discount_code_not_found',
      message: "We don't recognize the code WELCOME10. Remove it to place your order.",
    });

    const german = await english.post('orders', body, { ...headers, 'accept-language': 'de-DE,de;q=0.9' });
    expect(german.body).toEqual({
      status: 422,
      code: 'discount_code_not_found',
      message: 'Wir kennen den Code WELCOME10 nicht. Entfernen Sie ihn, um Ihre Bestellung aufzugeben.',
    });

    const again = await english.post('orders', body, headers);
    expect(again.body).toEqual(first.body);
    const stored = await t.db.query<{ n: number }>(
      "SELECT count(*)::int AS n FROM orders WHERE organization_id = $1 AND status = 'complete'",
      [store.org.id],
    );
    expect(stored.rows[0]!.n).toBe(0);
  });
});

describe('card details sent where they do not belong', () => {
  it('are refused in the language the page asks in, never echoed', async () => {
    const store = await createStore(t.app, t.db);
    const token = await store.cart([{ offer_id: store.offers.beans.id }]);
    const spanish = await shopperSession(t.app, store.org.publicId, { headers: { 'accept-language': 'es' } });
    const typed = await spanish.post('orders', orderBody(token, { ship_address2: `card ${CARDS.visa}` }), {
      'idempotency-key': key(),
    });
    const inSpanish =
      'Esto parece un número de tarjeta. Introduce los datos de la tarjeta solo en los campos de pago.';
    expect(typed.body).toEqual({
      status: 422,
      code: 'validation_failed',
      message: inSpanish,
      fields: { ship_address2: inSpanish },
    });

    const japanese = await shopperSession(t.app, store.org.publicId, {
      headers: { 'accept-language': 'ja' },
    });
    const sent = await japanese.post(
      'orders',
      orderBody(token, { payment: { method: 'card', card_number: CARDS.visa, card_cvv: '737' } }),
      { 'idempotency-key': key() },
    );
    const inJapanese =
      'カード情報は決済代行会社の安全なカード入力欄にのみ入力し、ストアには送信されません。ページを再読み込みして、そこでカード情報を入力してください。';
    expect(sent.body).toEqual({
      status: 422,
      code: 'card_data_refused',
      message: inJapanese,
      fields: { 'payment.card_number': inJapanese, 'payment.card_cvv': inJapanese },
    });
    for (const response of [typed, sent]) expect(JSON.stringify(response.body)).not.toContain(CARDS.visa);
  });
});
